/**
 * Model-based testing of the core: one operation interpreter ({@link dev.cairn.model.Harness}) and one reference
 * model per structure ({@link dev.cairn.model.SetModel} for each deletion policy, {@link dev.cairn.model.PoolModel}),
 * built from plain Java collections, driven two ways:
 * <ul>
 *     <li>{@code dev.cairn.set.SparseSetModelTest}: seeded random sequences, at least 200,000 operations per policy
 *     in every build. On a failure it prints the seed and the shortest failing sequence it could find. Replay:
 *     {@code mvn -pl core test -Dtest=SparseSetModelTest -Dcairn.fuzz.seed=<seed>}; more operations:
 *     {@code -Dcairn.fuzz.operations=<n>}.</li>
 *     <li>{@code dev.cairn.set.SwapAndPopFuzzTest}, {@code InPlaceFuzzTest}, {@code SwapOnlyFuzzTest}: Jazzer
 *     targets whose input bytes choose the operations ({@link dev.cairn.model.FuzzChoices}). {@code mvn test} runs
 *     them in regression mode over {@code src/test/resources/dev/cairn/set/<Target>Inputs/fuzz/};
 *     {@code .ci/fuzz} fuzzes each for a bounded time.</li>
 * </ul>
 * Both drivers use the same {@link dev.cairn.model.OpGenerator}, which reads the models to pick interesting handles,
 * and the same {@link dev.cairn.model.ModelRun}, which replays and shrinks failing sequences. Operations carry
 * concrete values ({@link dev.cairn.model.Op}), and whether a call must succeed or throw is decided by the model at
 * replay time, so any subsequence of a failing run is itself a valid test.
 */
package dev.cairn.model;

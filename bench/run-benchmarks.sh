#!/usr/bin/env bash
# Runs Cairn's JMH suite and regenerates docs/benchmarks.md and docs/benchmarks.svg.
#
#   bench/run-benchmarks.sh quick [JMH options]   about 5 minutes on 2 cores: indicative numbers
#   bench/run-benchmarks.sh full  [JMH options]   tighter numbers (about half an hour on 2 cores)
#   bench/run-benchmarks.sh report [RESULTS.json] regenerate the page and chart from existing results
#
# Raw JMH JSON goes to bench/results/<profile>.json, the machine and command to bench/results/<profile>.properties.
# Extra JMH options come after the profile's, e.g. a benchmark regex: bench/run-benchmarks.sh quick 'Cairn.*'
set -euo pipefail
cd "$(dirname "$0")/.."

JAR=bench/target/benchmarks.jar
if [ ! -f "$JAR" ]; then
  echo "building $JAR (mvn -q -Pbench -DskipTests package)"
  mvn -q -Pbench -DskipTests package
fi
# The host JVM only runs the JMH harness and the report; forks get the flag from each benchmark's @Fork.
JAVA_FLAGS=(--add-exports java.base/jdk.internal.misc=ALL-UNNAMED)

case "${1:-}" in
  quick|full)
    exec java "${JAVA_FLAGS[@]}" -cp "$JAR" dev.cairn.bench.report.RunBenchmarks "$@"
    ;;
  report)
    exec java "${JAVA_FLAGS[@]}" -cp "$JAR" dev.cairn.bench.report.ReportGenerator "${2:-bench/results/quick.json}"
    ;;
  *)
    echo "usage: bench/run-benchmarks.sh quick|full [JMH options] | report [RESULTS.json]" >&2
    exit 2
    ;;
esac

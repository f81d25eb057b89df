package dev.cairn.bench.artemis;

import com.artemis.Component;

/**
 * Artemis-odb's tag: a component without data.
 */
public final class Frozen extends Component
{
}

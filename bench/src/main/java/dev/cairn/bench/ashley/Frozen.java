package dev.cairn.bench.ashley;

import com.badlogic.ashley.core.Component;

/**
 * Ashley's tag: a component without data.
 */
public final class Frozen implements Component
{
}

package dev.cairn.model;

import dev.cairn.DeletionPolicy;
import dev.cairn.Entity;
import dev.cairn.set.SparseSet;

import java.util.List;

/**
 * Chooses the next operation from the current model state and a {@link Choices} source. Handles are drawn to hit
 * the interesting cases often: current members, released and erased handles, stale and next versions, pool handles,
 * indices on sparse page boundaries and far away (up to {@link Entity#MAX_INDEX}), {@link Entity#NULL} and malformed
 * values. Far indices come from a few fixed regions so that the number of sparse pages, and so the memory, stays
 * bounded however long a run is.
 * <p>
 * A phase (churn, grow, shrink) changes the weights now and then, so sets both fill up and empty out.
 */
public final class OpGenerator
{
    private static final Op.Kind[] KINDS = Op.Kind.values();
    private static final int[][] WEIGHTS = new int[3][];
    private static final int[] TOTALS = new int[3];
    private static final int GROW = 1;
    private static final int SHRINK = 2;

    /** How many small indices a run draws from: small spans collide often, large ones let the set grow. */
    private static final int[] SPANS = {48, 256, 1024, 4096};
    private static final int[] FAR_INDICES =
        {Entity.MAX_INDEX - 3, Entity.MAX_INDEX / 2, 1 << 20, 123_456_789, 200_003_581};
    private static final int[] PAGE_EDGES =
        {SparseSet.PAGE_SIZE - 1, SparseSet.PAGE_SIZE, SparseSet.PAGE_SIZE + 1, 2 * SparseSet.PAGE_SIZE - 1,
            2 * SparseSet.PAGE_SIZE, 3 * SparseSet.PAGE_SIZE - 1};

    static
    {
        final int[] base = new int[KINDS.length];
        base[Op.Kind.INSERT.ordinal()] = 220;
        base[Op.Kind.INSERT_MANY.ordinal()] = 6;
        base[Op.Kind.ERASE.ordinal()] = 110;
        base[Op.Kind.REMOVE.ordinal()] = 70;
        base[Op.Kind.CONTAINS.ordinal()] = 60;
        base[Op.Kind.INDEX_OF.ordinal()] = 40;
        base[Op.Kind.ENTITY_AT.ordinal()] = 20;
        base[Op.Kind.SWAP.ordinal()] = 40;
        base[Op.Kind.SORT.ordinal()] = 15;
        base[Op.Kind.SORT_AS.ordinal()] = 15;
        base[Op.Kind.COMPACT.ordinal()] = 20;
        base[Op.Kind.CLEAR.ordinal()] = 1;
        base[Op.Kind.RESERVE.ordinal()] = 5;
        base[Op.Kind.SHRINK_TO_FIT.ordinal()] = 8;
        base[Op.Kind.ERASE_WHILE_ITERATING.ordinal()] = 8;
        base[Op.Kind.CLOSE_AND_REOPEN.ordinal()] = 1;
        base[Op.Kind.OTHER_INSERT.ordinal()] = 70;
        base[Op.Kind.OTHER_REMOVE.ordinal()] = 40;
        base[Op.Kind.CREATE.ordinal()] = 60;
        base[Op.Kind.CREATE_BATCH.ordinal()] = 10;
        base[Op.Kind.DESTROY.ordinal()] = 50;
        base[Op.Kind.IS_ALIVE.ordinal()] = 20;
        base[Op.Kind.CURRENT_VERSION.ordinal()] = 15;
        base[Op.Kind.POOL_CLEAR.ordinal()] = 3;
        for (int phase = 0; phase < 3; phase++)
        {
            final int[] weights = base.clone();
            if (phase == GROW)
            {
                weights[Op.Kind.INSERT.ordinal()] *= 3;
                weights[Op.Kind.ERASE.ordinal()] /= 3;
                weights[Op.Kind.REMOVE.ordinal()] /= 3;
            }
            else if (phase == SHRINK)
            {
                weights[Op.Kind.INSERT.ordinal()] /= 2;
                weights[Op.Kind.ERASE.ordinal()] *= 3;
                weights[Op.Kind.REMOVE.ordinal()] *= 3;
            }
            int total = 0;
            for (final int weight : weights)
            {
                total += weight;
            }
            WEIGHTS[phase] = weights;
            TOTALS[phase] = total;
        }
    }

    private final Harness harness;
    private final Choices choices;
    private final long[] recent = new long[16];
    private final int span;
    private int recentCount;
    private int phase;

    /**
     * Creates a generator.
     *
     * @param harness the interpreter whose models are read to pick handles.
     * @param choices where decisions come from.
     */
    public OpGenerator(final Harness harness, final Choices choices)
    {
        this.harness = harness;
        this.choices = choices;
        this.span = SPANS[choices.pick(SPANS.length)];
    }

    /**
     * The next operation.
     *
     * @return an operation; not yet applied.
     */
    public Op next()
    {
        if (choices.pick(128) == 0)
        {
            phase = choices.pick(3);
        }
        final Op.Kind kind = pickKind();
        switch (kind)
        {
            case INSERT:
                return Op.of(kind, choices.pick(5) < 3 ? Entity.of(choices.pick(span), choices.pick(2)) : setHandle());
            case INSERT_MANY:
                return new Op(kind, Entity.of(choices.pick(span), choices.pick(2)), 1 + choices.pick(64));
            case ERASE:
            case REMOVE:
            {
                final long member = memberOf(harness.model());
                final long entity = member != Entity.NULL && choices.pick(5) < 2 ? member : setHandle();
                remember(entity);
                return Op.of(kind, entity);
            }
            case CONTAINS:
            case INDEX_OF:
                return Op.of(kind, setHandle());
            case ENTITY_AT:
                return Op.of(kind, choices.pick(harness.model().size() + 4) - 2);
            case SWAP:
                return new Op(kind, setHandle(), setHandle());
            case SORT:
                return Op.of(kind, choices.pick(SortKey.values().length));
            case RESERVE:
                return Op.of(kind, reserveArgument());
            case ERASE_WHILE_ITERATING:
                return Op.of(kind, choices.pick(3));
            case OTHER_INSERT:
                return Op.of(kind, choices.pick(5) == 0 ? setHandle() : poolHandle());
            case OTHER_REMOVE:
                return Op.of(kind, choices.pick(3) == 0 ? poolHandle() : otherMember());
            case CREATE_BATCH:
                return Op.of(kind, choices.pick(8) == 0 ? Harness.POOL_MAX_ENTITIES + 1 : choices.pick(12) - 1);
            case DESTROY:
            case IS_ALIVE:
                return Op.of(kind, choices.pick(6) == 0 ? setHandle() : poolHandle());
            case CURRENT_VERSION:
                return Op.of(kind, choices.pick(harness.poolModel().createdCount() + 4) - 2);
            default:
                return Op.of(kind);
        }
    }

    private Op.Kind pickKind()
    {
        int roll = choices.pick(TOTALS[phase]);
        final int[] weights = WEIGHTS[phase];
        for (int k = 0; k < weights.length; k++)
        {
            roll -= weights[k];
            if (roll < 0)
            {
                return KINDS[k];
            }
        }
        return Op.Kind.INSERT;
    }

    private long reserveArgument()
    {
        switch (choices.pick(10))
        {
            case 0:
                return -1;
            case 1:
                return SparseSet.MAX_CAPACITY + 1L;
            default:
                return choices.pick(2048);
        }
    }

    /** A handle for an operation on the set under test. */
    private long setHandle()
    {
        final SetModel model = harness.model();
        final int roll = choices.pick(100);
        if (roll < 40)
        {
            final long member = memberOf(model);
            if (member != Entity.NULL)
            {
                return member;
            }
            return Entity.of(choices.pick(span), choices.pick(3));
        }
        if (roll < 47)
        {
            if (model.policy() == DeletionPolicy.SWAP_ONLY && model.size() > model.freeList() && choices.pick(2) == 0)
            {
                return model.slot(model.freeList() + choices.pick(model.size() - model.freeList()));
            }
            return recentCount > 0 ? recent[choices.pick(recentCount)] : Entity.of(choices.pick(48), 0);
        }
        if (roll < 54)
        {
            return poolHandle();
        }
        if (roll < 68)
        {
            return Entity.of(choices.pick(span), choices.pick(3));
        }
        if (roll < 74)
        {
            return variantOf(memberOf(model));
        }
        if (roll < 80)
        {
            return Entity.of(choices.pick(2048), choices.pick(2));
        }
        if (roll < 85)
        {
            return Entity.of(FAR_INDICES[choices.pick(FAR_INDICES.length)] + choices.pick(4), choices.pick(2));
        }
        if (roll < 89)
        {
            return Entity.of(PAGE_EDGES[choices.pick(PAGE_EDGES.length)], choices.pick(2));
        }
        if (roll < 91)
        {
            return Entity.of(Entity.MAX_INDEX - choices.pick(2), choices.pick(2) == 0 ? 0 : Entity.MAX_VERSION);
        }
        if (roll < 93)
        {
            return Entity.NULL;
        }
        if (roll < 97)
        {
            return malformed();
        }
        return otherMember();
    }

    private long memberOf(final SetModel model)
    {
        if (model.memberCount() == 0)
        {
            return Entity.NULL;
        }
        for (int attempt = 0; attempt < 4; attempt++)
        {
            final long entity = model.slot(choices.pick(model.freeList()));
            if (entity != SetModel.TOMBSTONE)
            {
                return entity;
            }
        }
        return model.iteration().get(0);
    }

    /** Another version of a handle's index: next, previous, 0 or MAX_VERSION. */
    private long variantOf(final long entity)
    {
        final int index = entity == Entity.NULL ? choices.pick(48) : Entity.index(entity);
        final int version = entity == Entity.NULL ? 0 : Entity.version(entity);
        switch (choices.pick(4))
        {
            case 0:
                return Entity.combine(index, Entity.nextVersion(version));
            case 1:
                return Entity.combine(index, version == 0 ? Entity.MAX_VERSION : version - 1);
            case 2:
                return Entity.combine(index, 0);
            default:
                return Entity.combine(index, Entity.MAX_VERSION);
        }
    }

    private long malformed()
    {
        final int index = choices.pick(48);
        switch (choices.pick(6))
        {
            case 0:
                return Entity.combine(index, Entity.TOMBSTONE_VERSION);
            case 1:
                return Entity.combine(-1 - index, 0);
            case 2:
                return Entity.combine(Entity.MAX_INDEX + 1 + index, 0);
            case 3:
                return Entity.combine(index, -1 - choices.pick(4));
            case 4:
                return Entity.combine(index, 0) | Long.MIN_VALUE;
            default:
                return choices.anyLong();
        }
    }

    /** A handle from the pool: alive, stale, or never created. */
    private long poolHandle()
    {
        final PoolModel pool = harness.poolModel();
        final int roll = choices.pick(10);
        if (roll < 6 && pool.aliveCount() > 0)
        {
            final List<Long> alive = pool.aliveEntities();
            return alive.get(choices.pick(alive.size()));
        }
        if (roll < 9 && pool.createdCount() > 0)
        {
            final int index = choices.pick(pool.createdCount());
            final int version = pool.currentVersion(index);
            return Entity.combine(index, choices.pick(2) == 0 ?
                (version == 0 ? Entity.MAX_VERSION : version - 1) : Entity.nextVersion(version));
        }
        return Entity.of(pool.createdCount() + choices.pick(4), 0);
    }

    private long otherMember()
    {
        final SetModel other = harness.otherModel();
        if (other.memberCount() == 0)
        {
            return poolHandle();
        }
        return memberOf(other);
    }

    private void remember(final long entity)
    {
        if (recentCount < recent.length)
        {
            recent[recentCount++] = entity;
        }
        else
        {
            recent[choices.pick(recent.length)] = entity;
        }
    }
}

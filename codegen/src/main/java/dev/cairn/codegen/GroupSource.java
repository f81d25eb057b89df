package dev.cairn.codegen;

import dev.cairn.codegen.GroupModel.BlockColumn;

import javax.lang.model.util.Elements;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Renders the Java source of one generated group from a validated {@link GroupModel}: a {@code RuntimeGroup} built
 * from the rule, walked with a {@code Ref} per required component. An owning group's walk positions the {@code Ref}s
 * of its owned storages at the loop's index, where those storages hold the same entity, and looks up only the
 * components it requires without owning them.
 */
final class GroupSource
{
    /** What a block's read-only accessor appends to the column's name. */
    static final String READ_ONLY = "ReadOnly";

    /** What the names of a block's private flags append to the column's name. */
    static final String FILLED = "Filled";
    static final String WRITTEN = "Written";

    /** The types every generated group declares inside it, which hide types of the same simple name in its code. */
    static final Set<String> NESTED_TYPES = Set.of("Action", "BlockAction", "Block", "Cursor");

    /** The names of the members every generated block has, which no column accessor may take. */
    static final Set<String> BLOCK_MEMBERS = Set.of("CAPACITY", "start", "length", "entity", "begin", "end",
        "requireValid", "requireConstants", "hashCode", "toString", "getClass", "notify", "notifyAll", "wait", "clone",
        "finalize");

    /**
     * About how many bytes a block's arrays take together: blocks this size measured fastest (a block of position and
     * velocity, 16 bytes an entity, holds 512), where smaller ones pay the copies' fixed cost more often and larger
     * ones make the copies miss the cache.
     */
    private static final int BLOCK_BYTES = 8192;

    /** The fewest and the most entities a block holds, whatever its columns weigh. */
    private static final int MIN_BLOCK_CAPACITY = 64;
    private static final int MAX_BLOCK_CAPACITY = 1024;

    private final GroupModel model;
    private final Elements elements;
    private final JavaLangNames lang;
    private final String packageName;
    private final String className;
    private final boolean markGenerated;
    private final List<ViewComponent> required;
    private final List<ViewComponent> passed = new ArrayList<>();
    private final boolean owning;
    private final JavaWriter out = new JavaWriter();

    GroupSource(
        final GroupModel model,
        final Elements elements,
        final String packageName,
        final String className,
        final boolean markGenerated)
    {
        this.model = model;
        this.elements = elements;
        this.lang = new JavaLangNames(elements, packageName);
        this.packageName = packageName;
        this.className = className;
        this.markGenerated = markGenerated;
        this.required = model.required();
        this.owning = !model.owns().isEmpty();
        for (final ViewComponent component : required)
        {
            if (!component.tag())
            {
                passed.add(component);
            }
        }
    }

    String render()
    {
        header();
        classJavadoc();
        if (markGenerated)
        {
            out.line(GeneratedNames.generatedAnnotation("Generated"));
        }
        out.line("public final class " + className + " implements " + lang.of("AutoCloseable"));
        out.open();
        action();
        out.blank();
        if (owning)
        {
            blockAction();
            out.blank();
        }
        fields();
        out.blank();
        constructor();
        out.blank();
        forEach();
        out.blank();
        parallelForEach();
        out.blank();
        walk();
        if (owning)
        {
            out.blank();
            forEachIndex();
            out.blank();
            forEachBlock();
        }
        out.blank();
        cursorMethod();
        out.blank();
        counts();
        if (owning)
        {
            out.blank();
            sort();
        }
        out.blank();
        lifecycle();
        out.blank();
        cursorClass();
        if (owning)
        {
            out.blank();
            blockClass();
        }
        out.close();
        return out.toString();
    }

    private void header()
    {
        if (!packageName.isEmpty())
        {
            out.line("package " + packageName + ";");
            out.blank();
        }
        final TreeSet<String> imports = new TreeSet<>();
        imports.add("dev.cairn.World");
        imports.add("dev.cairn.group.RuntimeGroup");
        imports.add("dev.cairn.parallel.Chunks");
        if (owning)
        {
            imports.add("java.util.ArrayDeque");
        }
        imports.add("java.util.concurrent.ForkJoinPool");
        if (owning)
        {
            imports.add("dev.cairn.set.IndexComparator");
            imports.add("java.util.function.IntConsumer");
        }
        if (markGenerated)
        {
            imports.add(GeneratedNames.GENERATED);
        }
        for (final ViewComponent component : all())
        {
            if (component.storageImported(packageName))
            {
                imports.add(component.storageName());
            }
        }
        for (final String name : imports)
        {
            out.line("import " + name + ";");
        }
        out.blank();
    }

    private void classJavadoc()
    {
        final String rule = "the entities that have " + ViewComponent.links(required, "and") +
            (model.without().isEmpty() ? "" : " but not " + ViewComponent.links(model.without(), "or"));
        final String kind = !owning ? "A non-owning group: it keeps its own set of the matching entities and looks " +
            "every component up through its storage." : model.with().isEmpty() ? "A full-owning group: the storages " +
            "of " + ViewComponent.links(model.owns(), "and") + " keep its entities at their front, in the same " +
            "order, so a walk reads them at the loop's index with no lookup." : "A partial-owning group: the " +
            "storages of " + ViewComponent.links(model.owns(), "and") + " keep its entities at their front, in the " +
            "same order; the other components are looked up.";
        out.javadoc("The group of " + rule + ", kept up to date as components come and go. Generated from {@link " +
                model.group().getQualifiedName() + "} by cairn-codegen; do not edit.",
            "<p>",
            kind + " {@link #forEach(Action)} passes each entity with a positioned {@code Ref} per component, the " +
                "reusable {@link #cursor()} serves an ordinary loop" + (owning ? ", {@link #forEachIndex" +
                "(IntConsumer)} passes only the index, for the owned storages' indexed accessors, and {@link " +
                "#forEachBlock(BlockAction)} hands the owned columns over as arrays, a block at a time, with the " +
                "structure locked (the fastest walk); none allocates" : "; neither allocates") + ". Removing the " +
                "current entity, " +
                "or any of its components, while iterating is safe and entities joining meanwhile are not visited; " +
                "a change that moves another entity across the walk (one not yet visited leaving) stops it with an " +
                "{@link IllegalStateException}. See {@link RuntimeGroup} for the rules of ownership.",
            "<p>",
            "{@link #close()} detaches the group" + (owning ? " and gives up its storages" : " and frees its memory") +
                "; closing the world does too. Afterwards {@link #size()} is 0, {@link #isOpen()} false, and the " +
                "other methods throw {@link IllegalStateException}. Not thread-safe.");
    }

    private void action()
    {
        out.javadoc("What {@link #forEach(Action)} calls for each entity of the group.");
        out.line(lang.annotation("FunctionalInterface"));
        out.line("public interface Action");
        out.open();
        final List<String> doc = new ArrayList<>(List.of("Receives one entity of the group.", "",
            "@param entity the entity."));
        final List<String> parameters = new ArrayList<>();
        parameters.add("long entity");
        for (final ViewComponent component : passed)
        {
            doc.add("@param " + component.name() + " its {@link " + component.record().getQualifiedName() + "}.");
            parameters.add(component.refType() + " " + component.name());
        }
        out.javadoc(doc.toArray(new String[0]));
        out.list("void accept(", parameters, ");");
        out.close();
    }

    private void fields()
    {
        for (final ViewComponent component : passed)
        {
            out.line("private final " + component.storageType() + " " + storageName(component) + ";");
        }
        for (final ViewComponent component : passed)
        {
            out.line("private final " + component.refType() + " " + refName(component) + ";");
        }
        out.line("private final RuntimeGroup group;");
        out.line("private final Cursor cursor;");
        IterationGuard.field(out, lang);
        if (owning)
        {
            out.line("/** Blocks made by earlier walks, for the next ones: a walk allocates none once warm. */");
            out.line("private final ArrayDeque<Block> spareBlocks = new ArrayDeque<>();");
            out.line("/**");
            out.line(" * What a block walk of this object calls itself: a string of its own, since ending a walk compares it by");
            out.line(" * identity, so that no other object ends this one's walk.");
            out.line(" */");
            out.line("private final " + lang.of("String") + " blockWalk = new " + lang.of("String") + "(\"" + className +
                ".forEachBlock\");");
        }
    }

    private void constructor()
    {
        out.javadoc("Builds the group over a world's storages, creating any that do not exist yet, registers it with the " +
                "world and fills it with the entities that match now" + (owning ? ", reordering the owned storages" :
                "") + ".",
            "",
            "@param world the world whose entities to group.",
            "@throws IllegalStateException if an owned storage is owned by a group this one does not nest with, or " +
                "is being iterated.");
        out.line("public " + className + "(final World world)");
        out.open();
        for (final ViewComponent component : all())
        {
            out.line((passed.contains(component) ? "" : "final " + component.storageType() + " ") +
                storageName(component) + " = world.storage(" + component.storageType() + ".TYPE);");
        }
        for (final ViewComponent component : passed)
        {
            out.line(refName(component) + " = " + storageName(component) + ".ref();");
        }
        out.line("group = world.group()");
        out.line("    .named(\"" + className + "\")");
        rule("owning", model.owns());
        rule("with", model.with());
        rule("without", model.without());
        out.line("    .build();");
        out.line("cursor = new Cursor();");
        out.close();
    }

    private void rule(final String method, final List<ViewComponent> components)
    {
        if (components.isEmpty())
        {
            return;
        }
        final List<String> storages = new ArrayList<>();
        for (final ViewComponent component : components)
        {
            storages.add(storageName(component));
        }
        out.line("    ." + method + "(" + String.join(", ", storages) + ")");
    }

    private void forEach()
    {
        out.javadoc("Calls {@code action} once for each entity of the group, from the back of its range to the front.",
            "",
            "@param action receives each entity and its components.",
            "@throws IllegalStateException if called from inside an action of this same group, or if it or the " +
                "world is closed; from {@code action}, closing the world or the group, or sorting it, throws too.");
        out.line("public void forEach(final Action action)");
        out.open();
        out.line("java.util.Objects.requireNonNull(action, \"action is null: pass what to do with each entity\");");
        out.line("final RuntimeGroup group = this.group;");
        for (final ViewComponent component : passed)
        {
            out.line("final " + component.refType() + " " + refName(component) + " = this." + refName(component) +
                ";");
        }
        out.line("group.beginIteration();");
        IterationGuard.enter(out, lang, className, "a second " + className, "group.endIteration();");

        out.line("try");
        out.open();
        backwardWalk(() ->
        {
            step();
            visit();
        });
        out.close();
        out.line("finally");
        out.open();
        out.line("group.endIteration();");
        IterationGuard.exit(out, passed.stream().map(GroupSource::refName).toList());
        out.close();
        out.close();
    }

    /** Hands the positioned entity and its Refs to the action. */
    private void visit()
    {
        final List<String> arguments = new ArrayList<>();
        arguments.add("entity");
        for (final ViewComponent component : passed)
        {
            arguments.add(refName(component));
        }
        out.list("action.accept(", arguments, ");");
    }

    /**
     * The loop of a walk from the back of the group's range to the front, around {@code visit}, which handles index
     * {@code i}: after each visit it checks that the action moved no entity across the walk, and keeps {@code i} inside
     * the range if the action made it shrink.
     */
    private void backwardWalk(final Runnable visit)
    {
        out.line("int i = group.extent();");
        out.line("long moves = group.moveCount();");
        out.line("while (--i >= 0)");
        out.open();
        visit.run();
        if (owning)
        {
            // Every join and leave logs a move, so the range can only have shrunk if the count changed.
            out.line("if (group.moveCount() != moves)");
            out.open();
            out.line("group.checkWalk(moves, i);");
            out.line("moves = group.moveCount();");
            clampToExtent();
            out.close();
        }
        else
        {
            out.line("if (group.moveCount() != moves)");
            out.open();
            out.line("group.checkWalk(moves, i);");
            out.line("moves = group.moveCount();");
            out.close();
            clampToExtent();
        }
        out.close();
    }

    /** Moves the walk's index {@code i} back inside the range when the action made it shrink. */
    private void clampToExtent()
    {
        out.line("final int end = group.extent();");
        out.line("if (i > end)");
        out.open();
        out.line("i = end;");
        out.close();
    }

    private void parallelForEach()
    {
        out.javadoc("Calls {@code action} once for each entity of the group, on the {@linkplain " +
                "ForkJoinPool#commonPool() common pool} in chunks of an automatic size; see " +
                "{@link #parallelForEach(ForkJoinPool, int, Action)}.",
            "",
            "@param action receives each entity and its components, on any of the pool's threads.",
            "@throws IllegalStateException if the group or world is closed, or a parallel iteration of the world runs " +
                "already.");
        out.line("public void parallelForEach(final Action action)");
        out.open();
        out.line("parallelForEach(ForkJoinPool.commonPool(), Chunks.AUTOMATIC, action);");
        out.close();
        out.blank();
        out.javadoc("Calls {@code action} once for each entity of the group, splitting its range into chunks that run " +
                "on {@code pool}: the same entities as {@code forEach}, each exactly once, back to front within a " +
                "chunk and in no particular order across chunks. Each chunk has {@code Ref}s of its own; nothing is " +
                "allocated per entity.",
            "<p>",
            "Until it returns, the world's structure is locked: the action may read any component and write the " +
                "fields of the entity it visits, and every structural change (create, destroy, add, remove, clear, " +
                "sort, groups, listeners) throws {@link IllegalStateException}: record those in a " +
                "{@link dev.cairn.command.CommandBuffer} and apply it afterwards. The first exception an action throws " +
                "reaches the caller once every started chunk has returned, later ones suppressed in it.",
            "",
            "@param pool      where the chunks run; the calling thread waits.",
            "@param chunkSize indices per chunk, 1 or more, or {@link Chunks#AUTOMATIC}.",
            "@param action    receives each entity and its components, on any of the pool's threads.",
            "@throws IllegalStateException    if the group or world is closed, or a parallel iteration of the world " +
                "runs already.",
            "@throws IllegalArgumentException if {@code chunkSize} is negative.");
        out.line("public void parallelForEach(final ForkJoinPool pool, final int chunkSize, final Action action)");
        out.open();
        out.line("Chunks.requireValid(pool, chunkSize, action);");
        out.line("group.forEachChunk(pool, chunkSize, \"" + className + ".parallelForEach\",");
        out.line("    (from, to) -> walk(from, to, action));");
        out.close();
    }

    /** One chunk of a parallel walk: the loop of {@code forEach} over {@code [from, to)}, with Refs of its own. */
    private void walk()
    {
        out.line("private void walk(final int from, final int to, final Action action)");
        out.open();
        if (!owning || model.owns().get(0).tag())
        {
            out.line("final RuntimeGroup group = this.group;");
        }
        for (final ViewComponent component : passed)
        {
            out.line("final " + component.refType() + " " + refName(component) + " = " + storageName(component) +
                ".ref();");
        }
        out.line("try");
        out.open();
        out.line("int i = to;");
        out.line("while (--i >= from)");
        out.open();
        step();
        visit();
        out.close();
        out.close();
        out.line("finally");
        out.open();
        for (final ViewComponent component : passed)
        {
            out.line(refName(component) + ".moveTo(-1);");
        }
        out.close();
        out.close();
    }

    /**
     * The walks of an owning group by index: the owned storages hold the group's entity {@code i} at their index
     * {@code i}, so the action reaches its components through the storages' indexed accessors, with no Ref to
     * position.
     */
    private void forEachIndex()
    {
        final List<ViewComponent> owned = model.owns();
        final String storages = ViewComponent.links(owned, "and");
        out.javadoc("Calls {@code action} with each index of the group's range, from the back to the front: at index " +
                "{@code i} the storages of " + storages + " hold the same entity, the group's {@code i}th, so the " +
                "action reads and writes its components through the storages' indexed accessors ({@code getAt(i)}, " +
                "and {@code fieldAt(i)} for each field) and finds its handle with {@code entityAt(i)}, with no " +
                "lookup. The fastest walk over the columns in place: nothing is positioned per entity.",
            "<p>",
            "An index names a place, not an entity: once the action removed the entity at {@code i}, or one of its " +
                "owned components, the owned storages may hold other entities at {@code i} (a member already " +
                "visited, an entity outside the group) or none, and the accessors reach those: read and write what " +
                "the action needs before such a change, not after it. Otherwise the rules of " +
                "{@link #forEach(Action)} hold: entities joining meanwhile are not visited, and a change that moves " +
                "an entity not yet visited across the walk stops it with an {@link IllegalStateException}. Every " +
                "accessor checks its index against its storage's size (not the group's), so no sequence of changes " +
                "makes it reach memory outside the storage.",
            "",
            "@param action receives each index.",
            "@throws IllegalStateException if the group or the world is closed; from {@code action}, closing the " +
                "world or the group, or sorting it, throws too.",
            "@throws NullPointerException  if {@code action} is null.");
        out.line("public void forEachIndex(final IntConsumer action)");
        out.open();
        out.line("java.util.Objects.requireNonNull(action, \"action is null: pass what to do with each index\");");
        out.line("final RuntimeGroup group = this.group;");
        out.line("group.beginIteration();");
        out.line("try");
        out.open();
        backwardWalk(() -> out.line("action.accept(i);"));
        out.close();
        out.line("finally");
        out.open();
        out.line("group.endIteration();");
        out.close();
        out.close();
        out.blank();
        out.javadoc("Calls {@code action} with each index of the group's range, on the {@linkplain " +
                "ForkJoinPool#commonPool() common pool} in chunks of an automatic size; see " +
                "{@link #parallelForEachIndex(ForkJoinPool, int, IntConsumer)}.",
            "",
            "@param action receives each index, on any of the pool's threads.",
            "@throws IllegalStateException if the group or world is closed, or a parallel iteration of the world runs " +
                "already.");
        out.line("public void parallelForEachIndex(final IntConsumer action)");
        out.open();
        out.line("parallelForEachIndex(ForkJoinPool.commonPool(), Chunks.AUTOMATIC, action);");
        out.close();
        out.blank();
        out.javadoc("Calls {@code action} with each index of the group's range, splitting it into chunks that run on " +
                "{@code pool}: the indices of {@link #forEachIndex(IntConsumer)}, each exactly once, back to front " +
                "within a chunk and in no particular order across chunks. The world's structure is locked until it " +
                "returns, as for {@link #parallelForEach(ForkJoinPool, int, Action)}: the action may read any " +
                "component and write the fields at its own index.",
            "",
            "@param pool      where the chunks run; the calling thread waits.",
            "@param chunkSize indices per chunk, 1 or more, or {@link Chunks#AUTOMATIC}.",
            "@param action    receives each index, on any of the pool's threads.",
            "@throws IllegalStateException    if the group or world is closed, or a parallel iteration of the world " +
                "runs already.",
            "@throws IllegalArgumentException if {@code chunkSize} is negative.");
        out.line("public void parallelForEachIndex(final ForkJoinPool pool, final int chunkSize, " +
            "final IntConsumer action)");
        out.open();
        out.line("Chunks.requireValid(pool, chunkSize, action);");
        out.line("group.forEachChunk(pool, chunkSize, \"" + className + ".parallelForEachIndex\",");
        out.line("    (from, to) -> walkIndices(from, to, action));");
        out.close();
        out.blank();
        out.line("private static void walkIndices(final int from, final int to, final IntConsumer action)");
        out.open();
        out.line("for (int i = to - 1; i >= from; i--)");
        out.open();
        out.line("action.accept(i);");
        out.close();
        out.close();
    }

    private void blockAction()
    {
        out.javadoc("What {@link #forEachBlock(BlockAction)} calls for each block of the group.");
        out.line(lang.annotation("FunctionalInterface"));
        out.line("public interface BlockAction");
        out.open();
        out.javadoc("Receives one block of the group.", "",
            "@param block consecutive entities of the group, with their owned components' columns as arrays; valid " +
                "only until this call returns.");
        out.line("void accept(Block block);");
        out.close();
    }

    /**
     * The walks by block: the owned columns of up to {@link #blockCapacity()} entities at a time are copied into heap
     * arrays, which the JIT can vectorise a loop over, and the written ones copied back; the structure is locked
     * meanwhile so that the columns cannot move under the copies.
     */
    private void forEachBlock()
    {
        out.javadoc("Calls {@code action} once for each block of the group, from the front of its range to the back " +
                "(the order in which the copies stream through memory fastest): block {@code k} holds the entities " +
                "at {@code [k * CAPACITY, (k + 1) * CAPACITY)}, the last one fewer. A {@link Block} holds up to " +
                "{@link Block#CAPACITY} consecutive entities of the group, and hands out " +
                "each column of their owned components as an array whose element {@code i} belongs to the block's " +
                "entity {@code i}. An array is filled from the storage when the action first asks for it, and an " +
                "array asked for writable is copied back when the action returns; a loop over such arrays is what " +
                "the JIT vectorises, so this is the fastest way to process every entity of the group. One block " +
                "object serves every step, and nothing is allocated once the group has walked once.",
            "<p>",
            "Until it returns, the world's structure is locked: the action may read any component and write any " +
                "component's fields, and every structural change (create, destroy, add, remove, clear, sort, " +
                "groups, observers, closing) throws {@link IllegalStateException}; record those in a {@link " +
                "dev.cairn.command.CommandBuffer} and apply it afterwards. A write to an owned column by other means " +
                "(a storage's accessors, a {@code Ref}) at an entity of the current block is overwritten when the " +
                "block's writable array of that column is copied back. If the action throws, the walk stops and the " +
                "block it was given is not copied back; the blocks before it were.",
            "",
            "@param action receives each block.",
            "@throws IllegalStateException if the group or the world is closed, or the structure is locked already " +
                "(a parallel iteration, another block walk, a snapshot written to a channel).",
            "@throws NullPointerException  if {@code action} is null.");
        out.line("public void forEachBlock(final BlockAction action)");
        out.open();
        out.line("java.util.Objects.requireNonNull(action, \"action is null: pass what to do with each block\");");
        out.line("final int extent = group.beginBlockWalk(blockWalk);");
        out.line("try");
        out.open();
        out.line("walkBlocks(0, extent, action);");
        out.close();
        out.line("finally");
        out.open();
        out.line("group.endBlockWalk(blockWalk);");
        out.close();
        out.close();
        out.blank();
        out.javadoc("Calls {@code action} once for each block of the group, on the {@linkplain " +
                "ForkJoinPool#commonPool() common pool} in chunks of an automatic size; see " +
                "{@link #parallelForEachBlock(ForkJoinPool, int, BlockAction)}.",
            "",
            "@param action receives each block, on any of the pool's threads.",
            "@throws IllegalStateException if the group or world is closed, or the structure is locked already.");
        out.line("public void parallelForEachBlock(final BlockAction action)");
        out.open();
        out.line("parallelForEachBlock(ForkJoinPool.commonPool(), Chunks.AUTOMATIC, action);");
        out.close();
        out.blank();
        out.javadoc("Calls {@code action} once for each block of the group, splitting its range into chunks that run " +
                "on {@code pool}, each walked block by block with a {@link Block} of its own: the entities of " +
                "{@link #forEachBlock(BlockAction)}, in the same blocks, front to back within a chunk and in no " +
                "particular order across chunks. The chunk size is rounded up to a multiple of " +
                "{@link Block#CAPACITY}, so the blocks do not depend on it, and what the actions record in a " +
                "{@link dev.cairn.command.CommandBuffer} is applied in the order {@code forEachBlock} would have " +
                "recorded it, whatever the chunk size and the number of threads. The world's " +
                "structure is locked until it returns, as for {@link #parallelForEach(ForkJoinPool, int, Action)}: " +
                "the action may read any component and write the arrays of its own block.",
            "",
            "@param pool      where the chunks run; the calling thread waits.",
            "@param chunkSize indices per chunk, 1 or more (rounded up to whole blocks), or {@link Chunks#AUTOMATIC}.",
            "@param action    receives each block, on any of the pool's threads.",
            "@throws IllegalStateException    if the group or world is closed, or the structure is locked already.",
            "@throws IllegalArgumentException if {@code chunkSize} is negative.");
        out.line("public void parallelForEachBlock(final ForkJoinPool pool, final int chunkSize, " +
            "final BlockAction action)");
        out.open();
        out.line("Chunks.requireValid(pool, chunkSize, action);");
        out.line("final int size = Chunks.sizeInBlocks(chunkSize, group.extent(), pool.getParallelism(), " +
            "Block.CAPACITY);");
        out.line("group.forEachChunk(pool, size, \"" + className + ".parallelForEachBlock\",");
        out.line("    Chunks.frontToBack((from, to) -> walkBlocks(from, to, action)));");
        out.close();
        out.blank();
        out.line("/** The blocks of {@code [from, to)}, front to back, with a block no other walk uses meanwhile. */");
        out.line("private void walkBlocks(final int from, final int to, final BlockAction action)");
        out.open();
        out.line("Block block;");
        out.line("synchronized (spareBlocks)");
        out.open();
        out.line("block = spareBlocks.poll();");
        out.close();
        out.line("if (block == null)");
        out.open();
        out.line("block = new Block();");
        out.close();
        out.line("try");
        out.open();
        out.line("for (int start = from; start < to; start += Block.CAPACITY)");
        out.open();
        out.line("block.begin(start, " + lang.of("Math") + ".min(Block.CAPACITY, to - start));");
        out.line("action.accept(block);");
        out.line("block.end(true);");
        out.close();
        out.close();
        out.line("finally");
        out.open();
        out.line("block.end(false);");
        out.line("synchronized (spareBlocks)");
        out.open();
        out.line("spareBlocks.push(block);");
        out.close();
        out.close();
        out.close();
    }

    private void blockClass()
    {
        final List<BlockColumn> columns = model.blockColumns();
        final List<String> doc = new ArrayList<>(List.of("Up to {@link #CAPACITY} consecutive entities of the group, as {@link " + className +
                "#forEachBlock(BlockAction)} hands them to its action: the entities at the group's indices " +
                "{@code [start(), start() + length())}, which the owned storages hold at the same packed indices.",
            "<p>",
            "Each column of an owned component has two accessors returning the same array, whose elements " +
                "{@code [0, length())} hold the column's values for the block's entities in order (the elements " +
                "beyond are left over from other blocks): {@code positionX()} returns it writable, and the walk " +
                "copies it back into the storage after the action (stamping the change ticks of a tracked " +
                "component); {@code positionXReadOnly()} returns it filled but not copied back, so that a column " +
                "the action only reads costs one copy, not two. A column the action never asks for is not copied " +
                "at all. Changes made to an array returned read-only are lost, unless the writable accessor of the " +
                "same column is called too during the same step.",
            "<p>",
            "A block is valid only during the call of the action it was passed to: its accessors throw {@link " +
                "IllegalStateException} once its walk ended (the object is reused, so during a later walk a block " +
                "kept from an earlier one is that walk's current block)."));
        if (!model.hiddenColumns().isEmpty())
        {
            doc.add("<p>");
            doc.add("Left out, because this group's package cannot name their enum types: " +
                String.join(", ", model.hiddenColumns()) + "; read and write them through their storages.");
        }
        out.javadoc(doc.toArray(new String[0]));
        out.line("public final class Block");
        out.open();
        out.javadoc("The most entities a block holds.");
        out.line("public static final int CAPACITY = " + blockCapacity() + ";");
        out.blank();
        for (final BlockColumn column : columns)
        {
            out.line("private final " + column.elementType() + "[] " + column.name() + " = new " +
                column.elementType() + "[CAPACITY];");
        }
        for (final BlockColumn column : columns)
        {
            out.line("private boolean " + filled(column) + ";");
            out.line("private boolean " + written(column) + ";");
        }
        out.line("private int start;");
        out.line("private int length = -1;");
        out.blank();
        out.line("private Block()");
        out.open();
        out.close();
        out.blank();
        out.javadoc("The group's index of the block's first entity, which is also its packed index in the owned " +
                "storages.", "", "@return the index.");
        out.line("public int start()");
        out.open();
        out.line("requireValid();");
        out.line("return start;");
        out.close();
        out.blank();
        out.javadoc("How many entities the block holds.", "",
            "@return from 1 to {@link #CAPACITY}.");
        out.line("public int length()");
        out.open();
        out.line("requireValid();");
        out.line("return length;");
        out.close();
        out.blank();
        out.javadoc("The handle of one of the block's entities.", "",
            "@param i from 0 to {@link #length()} - 1.",
            "@return its handle.",
            "@throws IndexOutOfBoundsException if {@code i} is outside the block.");
        out.line("public long entity(final int i)");
        out.open();
        out.line("requireValid();");
        out.line("if (i < 0 || i >= length)");
        out.open();
        out.line("throw new " + lang.of("IndexOutOfBoundsException") + "(\"index \" + i + \" is outside [0, \" + length + \"), the entities \" +");
        out.line("    \"of this block of " + className + "\");");
        out.close();
        out.line("return " + className + ".this.group.entityAt(start + i);");
        out.close();
        for (final BlockColumn column : columns)
        {
            final String field = "{@code " + column.component().record().getSimpleName() + "." +
                column.column().path() + "}";
            out.blank();
            out.javadoc("The " + field + " of the block's entities, to read and write: copied back into the " +
                    "storage after the action.", "",
                "@return the array; element {@code i} belongs to the block's entity {@code i}.");
            out.line("public " + column.elementType() + "[] " + column.name() + "()");
            out.open();
            out.line("if (!" + written(column) + ")");
            out.open();
            out.line(column.name() + READ_ONLY + "();");
            out.line(written(column) + " = true;");
            out.close();
            out.line("return " + column.name() + ";");
            out.close();
            out.blank();
            out.javadoc("The " + field + " of the block's entities, to read: not copied back.", "",
                "@return the array; element {@code i} belongs to the block's entity {@code i}.");
            out.line("public " + column.elementType() + "[] " + column.name() + READ_ONLY + "()");
            out.open();
            out.line("if (!" + filled(column) + ")");
            out.open();
            out.line("requireValid();");
            out.line(className + ".this." + storageName(column.component()) + ".read" + column.storagePart() + "At(start, " +
                column.name() + ", 0, length);");
            out.line(filled(column) + " = true;");
            out.close();
            out.line("return " + column.name() + ";");
            out.close();
        }
        out.blank();
        out.line("private void begin(final int start, final int length)");
        out.open();
        out.line("this.start = start;");
        out.line("this.length = length;");
        out.close();
        out.blank();
        out.line("/** Copies the writable arrays back if {@code store}, then leaves the block invalid until begun. */");
        out.line("private void end(final boolean store)");
        out.open();
        out.line("if (store && length >= 0)");
        out.open();
        for (final BlockColumn column : columns)
        {
            if (column.column().type().isEnum())
            {
                out.line("if (" + written(column) + ")");
                out.open();
                out.line("requireConstants(" + column.name() + ", \"" + column.name() + "\");");
                out.close();
            }
        }
        for (final BlockColumn column : columns)
        {
            out.line("if (" + written(column) + ")");
            out.open();
            out.line(className + ".this." + storageName(column.component()) + ".write" + column.storagePart() + "At(start, " +
                column.name() + ", 0, length);");
            out.close();
        }
        out.close();
        for (final BlockColumn column : columns)
        {
            out.line(filled(column) + " = false;");
            out.line(written(column) + " = false;");
        }
        out.line("length = -1;");
        out.close();
        if (columns.stream().anyMatch(column -> column.column().type().isEnum()))
        {
            out.blank();
            out.line("/** Checks an enum column before any array of the block is copied back. */");
            out.line("private void requireConstants(final " + lang.of("Object") + "[] values, final " + lang.of("String") +
                " accessor)");
            out.open();
            out.line("for (int i = 0; i < length; i++)");
            out.open();
            out.line("if (values[i] == null)");
            out.open();
            out.line("throw new " + lang.of("NullPointerException") + "(\"element \" + i + \" of block.\" + accessor + \"() is null, \" +");
            out.line("    \"but a component's enum field cannot be: put a constant there; nothing of this block was \" +");
            out.line("    \"copied back\");");
            out.close();
            out.close();
            out.close();
        }
        out.blank();
        out.line("private void requireValid()");
        out.open();
        out.line("if (length < 0)");
        out.open();
        out.line("throw new " + lang.of("IllegalStateException") + "(\"this block of " + className + " was used after the action it \" +");
        out.line("    \"was passed to returned; use a block only inside that action\");");
        out.close();
        out.close();
        out.close();
    }

    /**
     * How many entities a block holds: the largest power of two whose arrays of every owned column take at most
     * {@value #BLOCK_BYTES} bytes, within [{@value #MIN_BLOCK_CAPACITY}, {@value #MAX_BLOCK_CAPACITY}].
     */
    private int blockCapacity()
    {
        int bytesPerEntity = 0;
        for (final BlockColumn column : model.blockColumns())
        {
            bytesPerEntity += column.column().type().width();
        }
        final int fits = Integer.highestOneBit(BLOCK_BYTES / Math.max(1, bytesPerEntity));
        return Math.max(MIN_BLOCK_CAPACITY, Math.min(MAX_BLOCK_CAPACITY, fits));
    }

    private static String filled(final BlockColumn column)
    {
        return column.name() + FILLED;
    }

    private static String written(final BlockColumn column)
    {
        return column.name() + WRITTEN;
    }

    /**
     * One step of a walk at index {@code i}: declares {@code entity} and positions every Ref, skipping the step if a
     * component is missing (never, while the group is exact). The owned Refs go to {@code i} itself.
     */
    private void step()
    {
        final ViewComponent lead = owning && !model.owns().get(0).tag() ? model.owns().get(0) : null;
        out.line("final long entity = " + (lead != null ? refName(lead) + ".moveTo(i).entity()" :
            "group.entityAt(i)") + ";");
        if (lead != null)
        {
            out.line("if (entity < 0) // Entity.NULL: never inside an owned range");
            skip();
        }
        for (final ViewComponent component : passed)
        {
            if (component == lead)
            {
                continue;
            }
            if (owning && model.owns().contains(component))
            {
                out.line(refName(component) + ".moveTo(i);");
            }
            else
            {
                out.line("if (!" + refName(component) + ".moveToEntity(entity, i))");
                skip();
            }
        }
    }

    private void cursorMethod()
    {
        out.javadoc("This group's cursor, reset to the start of a new walk: the same object every time. A cursor " +
                "loop cannot announce itself, so closing the world from another thread while one runs is a data race " +
                "that may read freed memory: stop the loop first.",
            "",
            "@return the cursor, before the first entity: call {@link Cursor#next()} first.");
        out.line("public Cursor cursor()");
        out.open();
        out.line("return cursor.reset();");
        out.close();
    }

    private void counts()
    {
        out.javadoc("How many entities the group holds.", "", "@return the count; 0 once closed.");
        out.line("public int size()");
        out.open();
        out.line("return group.size();");
        out.close();
        out.blank();
        out.javadoc("Whether the group holds no entity.", "", "@return true if empty.");
        out.line("public boolean isEmpty()");
        out.open();
        out.line("return group.isEmpty();");
        out.close();
        out.blank();
        out.javadoc("Whether an entity is in the group.", "", "@param entity any value.", "@return true if it is.");
        out.line("public boolean contains(final long entity)");
        out.open();
        out.line("return group.contains(entity);");
        out.close();
    }

    private void sort()
    {
        out.javadoc("Sorts the group so that iteration visits its entities in ascending {@code comparator} order, " +
                "permuting every owned storage together; sorting an owned storage directly throws.",
            "",
            "@param comparator compares packed indices of the " + model.owns().get(0).record().getSimpleName() +
                " storage, for example one of its {@code comparing...()} comparators.",
            "@throws IllegalStateException if a more restrictive group nests in this one, the group is being " +
                "iterated or closed, or the comparator changed the group; nothing is reordered then.");
        out.line("public void sort(final IndexComparator comparator)");
        out.open();
        out.line("group.sort(comparator);");
        out.close();
    }

    private void lifecycle()
    {
        out.javadoc("The runtime group behind this class, for code that takes any group.", "", "@return the group.");
        out.line("public RuntimeGroup group()");
        out.open();
        out.line("return group;");
        out.close();
        out.blank();
        out.javadoc("Whether the group is still open.", "", "@return false once it or its world is closed.");
        out.line("public boolean isOpen()");
        out.open();
        out.line("return group.isOpen();");
        out.close();
        out.blank();
        out.javadoc("Detaches the group" + (owning ? " and gives up its storages" : " and frees its memory") +
                ". Idempotent.",
            "",
            "@throws IllegalStateException if the group is being iterated; nothing is closed then.");
        out.line(lang.annotation("Override"));
        out.line("public void close()");
        out.open();
        out.line("group.close();");
        out.close();
    }

    private void cursorClass()
    {
        out.javadoc("An external walk of the group: {@link #next()} moves to the next entity and positions the " +
            "component accessors on it. There is one per group, reset by {@link " + className + "#cursor()}.");
        out.line("public final class Cursor");
        out.open();
        for (final ViewComponent component : passed)
        {
            out.line("private final " + component.refType() + " " + refName(component) + " = " +
                storageName(component) + ".ref();");
        }
        out.line("private int index;");
        out.line("private long entity = dev.cairn.Entity.NULL;");
        out.line("private int reorders;");
        out.line("private long moves;");
        out.line("/** Whether this cursor announced a walk it has not ended yet. */");
        out.line("private boolean walking;");
        out.blank();
        out.line("private Cursor()");
        out.open();
        out.close();
        out.blank();
        out.javadoc("Moves to the next entity.", "", "@return true if on an entity; false at the end, where it stays.");
        out.line("public boolean next()");
        out.open();
        out.line("final RuntimeGroup group = " + className + ".this.group;");
        out.line("if (group.reorderCount() != reorders)");
        out.open();
        out.line("group.ensureOpen();");
        out.line("throw new " + lang.of("IllegalStateException") + "(");
        out.line("    \"the group was sorted, or rebuilt by building a group that nests with it, while this \" +");
        out.line("    \"cursor walked it; the rest of the walk would visit some entities twice and others never: \" +");
        out.line("    \"start again with cursor()\");");
        out.close();
        out.line("if (group.moveCount() != moves)");
        out.open();
        out.line("if (index != " + lang.of("Integer") + ".MAX_VALUE) // the walk has started: check what moved across it");
        out.open();
        out.line("group.checkWalk(moves, index);");
        out.close();
        out.line("moves = group.moveCount();");
        out.close();
        out.line("int i = index;");
        clampToExtent();
        out.line("while (--i >= 0)");
        out.open();
        step();
        out.line("this.index = i;");
        out.line("this.entity = entity;");
        out.line("return true;");
        out.close();
        out.line("index = 0;");
        out.line("entity = dev.cairn.Entity.NULL;");
        for (final ViewComponent component : passed)
        {
            out.line(refName(component) + ".moveTo(-1);");
        }
        out.line("if (walking)");
        out.open();
        out.line("walking = false;");
        out.line("group.endCursorWalk();");
        out.close();
        out.line("if (!group.isOpen())");
        out.open();
        out.line("group.ensureOpen();");
        out.close();
        out.line("return false;");
        out.close();
        out.blank();
        out.javadoc("The entity the cursor is on.", "",
            "@return its handle, or {@code Entity.NULL} before the first and after the last entity.");
        out.line("public long entity()");
        out.open();
        out.line("return entity;");
        out.close();
        for (final ViewComponent component : passed)
        {
            out.blank();
            out.javadoc("The current entity's {@link " + component.record().getQualifiedName() + "}.", "",
                "@return its accessor, positioned on the current entity: the same object at every step.");
            out.line("public " + component.refType() + " " + component.name() + "()");
            out.open();
            out.line("return " + refName(component) + ";");
            out.close();
        }
        out.blank();
        out.line("private Cursor reset()");
        out.open();
        out.line("group.ensureOpen();");
        out.line("index = " + lang.of("Integer") + ".MAX_VALUE;");
        out.line("reorders = group.reorderCount();");
        out.line("if (!walking)");
        out.open();
        out.line("group.beginCursorWalk();");
        out.line("walking = true;");
        out.close();
        out.line("moves = group.moveCount();");
        out.line("group.resetWalkCheck();");
        out.line("entity = dev.cairn.Entity.NULL;");
        for (final ViewComponent component : passed)
        {
            out.line(refName(component) + ".moveTo(-1);");
        }
        out.line("return this;");
        out.close();
        out.close();
    }

    private void skip()
    {
        out.open();
        out.line("continue;");
        out.close();
    }

    private List<ViewComponent> all()
    {
        final List<ViewComponent> all = new ArrayList<>(required);
        all.addAll(model.without());
        return all;
    }

    private static String storageName(final ViewComponent component)
    {
        return component.name() + "Storage";
    }

    private static String refName(final ViewComponent component)
    {
        return component.name() + "Ref";
    }
}

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
    private final WalkSource walks;

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
        final WalkSource.Lead range = new WalkSource.Lead()
        {
            @Override
            public String suffix()
            {
                return "";
            }

            @Override
            public String extent()
            {
                return "group.extent()";
            }

            @Override
            public void step(final JavaWriter out)
            {
                GroupSource.this.step();
            }

            @Override
            public String cursorParameter()
            {
                return null;
            }
        };
        this.walks = new WalkSource(out, lang, className, passed, List.of(range), "group.ensureOpen();",
            List.of("final RuntimeGroup group = this.group;"), "");
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
        walks.forEach("Calls {@code action} once for each entity of the group, from the front of its range to the " +
            "back.", null);
        out.blank();
        walks.parallelForEach(null);
        if (owning)
        {
            out.blank();
            forEachIndex();
            out.blank();
            forEachBlock();
        }
        out.blank();
        walks.cursor(null);
        out.blank();
        counts();
        if (owning)
        {
            out.blank();
            sort();
        }
        out.blank();
        lifecycle();
        walks.loops();
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
        final TreeSet<String> imports = new TreeSet<>(WalkSource.imports(true));
        imports.add("dev.cairn.world.World");
        imports.add("dev.cairn.group.RuntimeGroup");
        if (owning)
        {
            imports.add("java.util.ArrayDeque");
        }
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
        final String kind = !owning ? "A non-owning group: it keeps its own set of the matching entities." :
            model.with().isEmpty() ? "A full-owning group: its storages keep its entities at their front, aligned." :
            "A partial-owning group: the owned storages keep its entities at their front, aligned.";
        out.javadoc("The group of " + rule + ", kept up to date as components come and go. Generated from {@link " +
                model.group().getQualifiedName() + "} by cairn-codegen; do not edit. " + kind + " Its walks follow " +
                "the rules of {@link dev.cairn.View}'s" + (owning ? "; its walks by index and by block, those of " +
                "{@link dev.cairn.Group}'s" : "") + ".");
    }

    private void action()
    {
        out.javadoc("What {@link #forEach(Action)} calls for each entity of the group.");
        out.line(lang.annotation("FunctionalInterface"));
        out.line("public interface Action");
        out.open();
        final List<String> parameters = new ArrayList<>();
        parameters.add("long entity");
        for (final ViewComponent component : passed)
        {
            parameters.add(component.refType() + " " + component.name());
        }
        out.javadoc("Receives one entity of the group and a {@code Ref} per component.");
        out.list("void accept(", parameters, ");");
        out.close();
    }

    private void fields()
    {
        for (final ViewComponent component : passed)
        {
            out.line("private final " + component.storageType() + " " + storageName(component) + ";");
        }
        out.line("private final RuntimeGroup group;");
        out.line("private final Walks walks;");
        out.line("private final Cursor cursor;");
        if (owning)
        {
            out.line("/** Blocks made by earlier walks, for the next ones: a walk allocates none once warm. */");
            out.line("private final ArrayDeque<Block> spareBlocks = new ArrayDeque<>();");
        }
    }

    private void constructor()
    {
        out.javadoc("Builds the group over a world's storages and fills it with the entities that match now; refused inside a " +
            "walk or listener.");
        out.line("public " + className + "(final World world)");
        out.open();
        for (final ViewComponent component : all())
        {
            out.line((passed.contains(component) ? "" : "final " + component.storageType() + " ") +
                storageName(component) + " = world.storage(" + component.storageType() + ".TYPE);");
        }
        out.line("group = world.group()");
        out.line("    .named(\"" + className + "\")");
        rule("owning", model.owns());
        rule("with", model.with());
        rule("without", model.without());
        out.line("    .build();");
        out.line("walks = Access.walks(world);");
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

    /**
     * The walks of an owning group by index: the owned storages hold the group's entity {@code i} at their index
     * {@code i}, so the action reaches its components through the storages' indexed accessors, with no Ref to
     * position.
     */
    private void forEachIndex()
    {
        out.javadoc("Calls {@code action} with each index of the group's range, front to back (see {@link dev.cairn.Group}).");
        out.line("public void forEachIndex(final IntConsumer action)");
        out.open();
        out.line("java.util.Objects.requireNonNull(action, \"action is null: pass what to do with each index\");");
        out.line("group.ensureOpen();");
        out.line("final int walk = walks.beginWalk(\"" + className + ".forEachIndex\");");
        out.line("try");
        out.open();
        out.line("walkIndices(0, group.extent(), action);");
        out.close();
        catchAndEnd();
        out.close();
        out.blank();
        out.javadoc("As {@link #parallelForEachIndex(ForkJoinPool, int, IntConsumer)} on the common pool.");
        out.line("public void parallelForEachIndex(final IntConsumer action)");
        out.open();
        out.line("parallelForEachIndex(ForkJoinPool.commonPool(), Chunks.AUTOMATIC, action);");
        out.close();
        out.blank();
        out.javadoc("Calls {@code action} with each index of {@link #forEachIndex(IntConsumer)}, in chunks that run on {@code pool}.");
        out.line("public void parallelForEachIndex(final ForkJoinPool pool, final int chunkSize, " +
            "final IntConsumer action)");
        out.open();
        out.line("Chunks.requireValid(pool, chunkSize, action);");
        out.line("group.ensureOpen();");
        out.line("walks.runParallel(\"" + className + ".parallelForEachIndex\", pool, group.extent(), chunkSize,");
        out.line("    (from, to) -> walkIndices(from, to, action));");
        out.close();
        out.blank();
        out.line("private static void walkIndices(final int from, final int to, final IntConsumer action)");
        out.open();
        out.line("for (int i = from; i < to; i++)");
        out.open();
        out.line("action.accept(i);");
        out.close();
        out.close();
    }

    /** Ends a walk begun in the statement before the {@code try} this follows, also when it threw. */
    private void catchAndEnd()
    {
        out.line("catch (final " + lang.of("Throwable") + " failure)");
        out.open();
        out.line("throw Failures.propagate(walks.end(walk, failure));");
        out.close();
        out.line("walks.end(walk);");
    }

    private void blockAction()
    {
        out.javadoc("What {@link #forEachBlock(BlockAction)} calls for each block of the group.");
        out.line(lang.annotation("FunctionalInterface"));
        out.line("public interface BlockAction");
        out.open();
        out.javadoc("Receives one block of the group, valid only until this call returns.");
        out.line("void accept(Block block);");
        out.close();
    }

    /**
     * The walks by block: the owned columns of up to {@link #blockCapacity()} entities at a time are copied into heap
     * arrays, which the JIT can vectorise a loop over, and the written ones copied back.
     */
    private void forEachBlock()
    {
        out.javadoc("Calls {@code action} once for each block of the group, front to back (see {@link dev.cairn.Group}).");
        out.line("public void forEachBlock(final BlockAction action)");
        out.open();
        out.line("java.util.Objects.requireNonNull(action, \"action is null: pass what to do with each block\");");
        out.line("group.ensureOpen();");
        out.line("final int walk = walks.beginWalk(\"" + className + ".forEachBlock\");");
        out.line("try");
        out.open();
        out.line("walkBlocks(0, group.extent(), action);");
        out.close();
        catchAndEnd();
        out.close();
        out.blank();
        out.javadoc("As {@link #parallelForEachBlock(ForkJoinPool, int, BlockAction)} on the common pool.");
        out.line("public void parallelForEachBlock(final BlockAction action)");
        out.open();
        out.line("parallelForEachBlock(ForkJoinPool.commonPool(), Chunks.AUTOMATIC, action);");
        out.close();
        out.blank();
        out.javadoc("Calls {@code action} once for each block of {@link #forEachBlock(BlockAction)}, in chunks that run on {@code " +
            "pool}.");
        out.line("public void parallelForEachBlock(final ForkJoinPool pool, final int chunkSize, " +
            "final BlockAction action)");
        out.open();
        out.line("Chunks.requireValid(pool, chunkSize, action);");
        out.line("group.ensureOpen();");
        out.line("final int extent = group.extent();");
        out.line("walks.runParallel(\"" + className + ".parallelForEachBlock\", pool, extent,");
        out.line("    Chunks.sizeInBlocks(chunkSize, extent, pool.getParallelism(), Block.CAPACITY),");
        out.line("    (from, to) -> walkBlocks(from, to, action));");
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
        final List<String> doc = new ArrayList<>(List.of("Up to {@link #CAPACITY} consecutive entities of the group, " +
            "with their owned columns as arrays (see {@link dev.cairn.Group})."));
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
        out.javadoc("The group's index of the block's first entity, also its packed index in the owned storages.");
        out.line("public int start()");
        out.open();
        out.line("requireValid();");
        out.line("return start;");
        out.close();
        out.blank();
        out.javadoc("How many entities the block holds, from 1 to {@link #CAPACITY}.");
        out.line("public int length()");
        out.open();
        out.line("requireValid();");
        out.line("return length;");
        out.close();
        out.blank();
        out.javadoc("The handle of the block's entity {@code i}, from 0 to {@link #length()} - 1.");
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
            out.javadoc("The " + field + " of the block's entities, copied back after the action.");
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
            out.javadoc("The " + field + " of the block's entities, to read only.");
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
        out.line("final long entity = " + (lead != null ? WalkSource.ref(lead) + ".moveTo(i).entity()" :
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
                out.line(WalkSource.ref(component) + ".moveTo(i, entity);");
            }
            else
            {
                out.line("if (!" + WalkSource.ref(component) + ".moveToEntity(entity, i))");
                skip();
            }
        }
    }

    private void counts()
    {
        out.javadoc("How many entities the group holds; 0 once closed.");
        out.line("public int size()");
        out.open();
        out.line("return group.size();");
        out.close();
        out.blank();
        out.javadoc("Whether the group holds no entity.");
        out.line("public boolean isEmpty()");
        out.open();
        out.line("return group.isEmpty();");
        out.close();
        out.blank();
        out.javadoc("Whether an entity is in the group.");
        out.line("public boolean contains(final long entity)");
        out.open();
        out.line("return group.contains(entity);");
        out.close();
    }

    private void sort()
    {
        out.javadoc("Sorts the group by {@code comparator}, over packed indices of its first owned storage, permuting every owned " +
            "storage together (see {@link RuntimeGroup#sort}).");
        out.line("public void sort(final IndexComparator comparator)");
        out.open();
        out.line("group.sort(comparator);");
        out.close();
    }

    private void lifecycle()
    {
        out.javadoc("The runtime group behind this class, for code that takes any group.");
        out.line("public RuntimeGroup group()");
        out.open();
        out.line("return group;");
        out.close();
        out.blank();
        out.javadoc("Whether the group is still open.");
        out.line("public boolean isOpen()");
        out.open();
        out.line("return group.isOpen();");
        out.close();
        out.blank();
        out.javadoc("Detaches the group" + (owning ? " and gives up its storages" : " and frees its memory") + "; idempotent; " +
            "refused inside a walk or listener.");
        out.line(lang.annotation("Override"));
        out.line("public void close()");
        out.open();
        out.line("group.close();");
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

}

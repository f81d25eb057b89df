package dev.cairn.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Renders the Java source of one generated observer from a validated {@link ObserverModel}: a
 * {@code RuntimeObserver} built from the rule, walked with a {@code Ref} per required component, as a view's
 * {@code forEach} does.
 */
final class ObserverSource
{
    private final ObserverModel model;
    private final JavaLangNames lang;
    private final String packageName;
    private final String className;
    private final boolean markGenerated;
    private final List<ViewComponent> required;
    private final List<ViewComponent> passed = new ArrayList<>();
    private final JavaWriter out = new JavaWriter();
    private final WalkSource walks;

    ObserverSource(
        final ObserverModel model,
        final JavaLangNames lang,
        final String packageName,
        final String className,
        final boolean markGenerated)
    {
        this.model = model;
        this.lang = lang;
        this.packageName = packageName;
        this.className = className;
        this.markGenerated = markGenerated;
        this.required = model.required();
        for (final ViewComponent component : required)
        {
            if (!component.tag())
            {
                passed.add(component);
            }
        }
        final WalkSource.Lead entered = new WalkSource.Lead()
        {
            @Override
            public String suffix()
            {
                return "";
            }

            @Override
            public String extent()
            {
                return "observer.extent()";
            }

            @Override
            public void step(final JavaWriter out)
            {
                out.line("final long entity = observer.entityAt(i);");
                for (final ViewComponent component : passed)
                {
                    // Cannot fail while the observer follows its rule; the test keeps a Ref from ever being off its
                    // entity.
                    out.line("if (!" + WalkSource.ref(component) + ".moveToEntity(entity, i))");
                    out.open();
                    out.line("continue;");
                    out.close();
                }
            }

            @Override
            public String cursorParameter()
            {
                return null;
            }
        };
        final List<String> locals = new ArrayList<>();
        locals.add("final RuntimeObserver observer = this.observer;");
        for (final ViewComponent component : passed)
        {
            locals.add("final " + component.storageType() + " " + WalkSource.storage(component) + " = this." +
                WalkSource.storage(component) + ";");
        }
        this.walks = new WalkSource(out, lang, className, passed, List.of(entered), "observer.ensureOpen();", locals,
            "");
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
        fields();
        out.blank();
        constructor();
        out.blank();
        walks.forEach("Calls {@code action} once for each observed entity, in the order they entered.", null);
        out.blank();
        counts();
        out.blank();
        clearAndClose();
        walks.loops();
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
        final TreeSet<String> imports = new TreeSet<>(WalkSource.imports(false));
        imports.add("dev.cairn.world.World");
        imports.add("dev.cairn.observer.RuntimeObserver");
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
        final List<String> rule = new ArrayList<>();
        if (!model.added().isEmpty())
        {
            rule.add(ViewComponent.links(model.added(), "or") + " added");
        }
        if (!model.updated().isEmpty())
        {
            rule.add(ViewComponent.links(model.updated(), "or") + " updated");
        }
        String text = "Observes the entities that had " + String.join(", or ", rule);
        if (!model.with().isEmpty())
        {
            text += ", while they have " + ViewComponent.links(model.with(), "and");
        }
        if (!model.without().isEmpty())
        {
            text += (model.with().isEmpty() ? ", while they have " : " but ") + "not " +
                ViewComponent.links(model.without(), "or");
        }
        out.javadoc(text + ", since it was last cleared. Generated from {@link " +
                model.observer().getQualifiedName() + "} by cairn-codegen; do not edit.",
            "<p>",
            "Every observed entity has " + ViewComponent.links(required, "and") + (model.without().isEmpty() ? "" :
                " and not " + ViewComponent.links(model.without(), "or")) + " at all times: an entity enters when a " +
                "trigger " +
                "fires and it matches, appears once however often it changed, and leaves when it stops matching, is " +
                "destroyed, or the observer is cleared (see {@link RuntimeObserver}). {@link #forEach(Action)} " +
                "passes each one with a positioned {@code Ref} per component and allocates nothing; removing the " +
                "current entity, or any of its components, while iterating is safe.",
            "<p>",
            "{@link #close()} stops observing and frees the observer's memory; closing the world does too. " +
                "Afterwards {@link #size()} is 0, {@link #isOpen()} false, and the other methods throw " +
                "{@link IllegalStateException}. Not thread-safe.");
    }

    private void action()
    {
        out.javadoc("What {@link #forEach(Action)} calls for each observed entity.");
        out.line(lang.annotation("FunctionalInterface"));
        out.line("public interface Action");
        out.open();
        final List<String> doc = new ArrayList<>(List.of("Receives one observed entity.", "",
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
            out.line("private final " + component.storageType() + " " + WalkSource.storage(component) + ";");
        }
        out.line("private final RuntimeObserver observer;");
        out.line("private final Walks walks;");
    }

    private void constructor()
    {
        out.javadoc("Starts observing a world's storages, creating any that do not exist yet. The observer starts " +
                "empty.",
            "",
            "@param world the world whose entities to observe.");
        out.line("public " + className + "(final World world)");
        out.open();
        for (final ViewComponent component : all())
        {
            out.line((passed.contains(component) ? "" : "final " + component.storageType() + " ") +
                storageLocal(component) + " = world.storage(" + component.storageType() + ".TYPE);");
        }
        out.line("observer = world.observer()");
        rule("onAdded", model.added());
        rule("onUpdated", model.updated());
        rule("with", model.with());
        rule("without", model.without());
        out.line("    .build();");
        out.line("walks = Access.walks(world);");
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
            storages.add(storageLocal(component));
        }
        out.line("    ." + method + "(" + String.join(", ", storages) + ")");
    }

    private void counts()
    {
        out.javadoc("How many entities the observer holds.", "", "@return the count.");
        out.line("public int size()");
        out.open();
        out.line("return observer.size();");
        out.close();
        out.blank();
        out.javadoc("Whether the observer holds no entity.", "", "@return true if empty.");
        out.line("public boolean isEmpty()");
        out.open();
        out.line("return observer.isEmpty();");
        out.close();
        out.blank();
        out.javadoc("Whether the observer holds an entity.", "", "@param entity any value.",
            "@return true if it does.");
        out.line("public boolean contains(final long entity)");
        out.open();
        out.line("return observer.contains(entity);");
        out.close();
    }

    private void clearAndClose()
    {
        out.javadoc("Empties the observer, typically once its entities have been handled; it goes on observing. Inside " +
            "a walk or a listener the clear is made when the walk returns.");
        out.line("public void clear()");
        out.open();
        out.line("observer.clear();");
        out.close();
        out.blank();
        out.javadoc("Whether the observer is still open.", "", "@return false once it or its world is closed.");
        out.line("public boolean isOpen()");
        out.open();
        out.line("return observer.isOpen();");
        out.close();
        out.blank();
        out.javadoc("Stops observing and frees the observer's memory. Idempotent.",
            "",
            "@throws IllegalStateException if a walk or listener holds the world's structure; nothing is closed then.");
        out.line(lang.annotation("Override"));
        out.line("public void close()");
        out.open();
        out.line("observer.close();");
        out.close();
    }

    private List<ViewComponent> all()
    {
        final List<ViewComponent> all = new ArrayList<>(required);
        all.addAll(model.without());
        return all;
    }

    private static String storageLocal(final ViewComponent component)
    {
        return component.name() + "Storage";
    }


}

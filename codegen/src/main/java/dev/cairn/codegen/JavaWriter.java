package dev.cairn.codegen;

import java.util.ArrayList;
import java.util.List;

/**
 * The one way generated source is written: lines at the current indent (four spaces a level), braces on their own
 * lines, Javadoc wrapped at {@value #WIDTH} columns without splitting an inline tag, and lists that go on one line
 * when they fit and one item a line when they do not.
 */
final class JavaWriter
{
    /** The widest line written, except a single word or inline tag that is longer on its own. */
    static final int WIDTH = 120;

    private static final String INDENT = "    ";

    private final StringBuilder out = new StringBuilder(16 * 1024);
    private int indent;

    /**
     * Writes one line at the current indent.
     *
     * @param text the line, without its indent or line break.
     * @return this writer.
     */
    JavaWriter line(final String text)
    {
        out.append(INDENT.repeat(indent)).append(text).append('\n');
        return this;
    }

    /**
     * Writes an empty line, unless the last line is already empty or opened a block.
     *
     * @return this writer.
     */
    JavaWriter blank()
    {
        if (out.length() > 0 && !endsWith("\n\n") && !endsWith("{\n"))
        {
            out.append('\n');
        }
        return this;
    }

    /**
     * Writes {@code {} and indents what follows.
     *
     * @return this writer.
     */
    JavaWriter open()
    {
        line("{");
        indent++;
        return this;
    }

    /**
     * Drops trailing empty lines, outdents and writes {@code }}.
     *
     * @return this writer.
     */
    JavaWriter close()
    {
        trimBlank();
        indent--;
        return line("}");
    }

    /**
     * Writes a block: {@code head}, then the statements in braces.
     *
     * @param head       a declaration or statement head, for example {@code public int size()}.
     * @param statements the lines of the body.
     * @return this writer.
     */
    JavaWriter block(final String head, final List<String> statements)
    {
        line(head);
        open();
        for (final String statement : statements)
        {
            line(statement);
        }
        return close();
    }

    /**
     * Writes {@code head + items + tail} on one line if it fits, else {@code head} alone and one item a line, indented
     * one more level, the last followed by {@code tail}: an argument or parameter list.
     *
     * @param head  the text before the first item, for example {@code return emplace(}.
     * @param items the items, joined by {@code ", "} on one line or ending in {@code ","} on their own lines.
     * @param tail  the text after the last item, for example {@code );}.
     * @return this writer.
     */
    JavaWriter list(final String head, final List<String> items, final String tail)
    {
        final String single = head + String.join(", ", items) + tail;
        if (fits(single) || items.isEmpty())
        {
            return line(single);
        }
        line(head);
        for (int k = 0; k < items.size(); k++)
        {
            line(INDENT + items.get(k) + (k == items.size() - 1 ? tail : ","));
        }
        return this;
    }

    /**
     * Writes {@code head + terms + tail} with {@code operator} between the terms on one line if it fits, else the
     * first term after {@code head} and each further one on its own line, indented one more level and led by the
     * operator: a condition such as {@code return a && b;}.
     *
     * @param head     the text before the first term.
     * @param terms    at least one term.
     * @param operator for example {@code &&}.
     * @param tail     the text after the last term.
     * @return this writer.
     */
    JavaWriter chain(final String head, final List<String> terms, final String operator, final String tail)
    {
        final String single = head + String.join(" " + operator + " ", terms) + tail;
        if (fits(single))
        {
            return line(single);
        }
        line(head + terms.get(0));
        for (int k = 1; k < terms.size(); k++)
        {
            line(INDENT + operator + " " + terms.get(k) + (k == terms.size() - 1 ? tail : ""));
        }
        return this;
    }

    /**
     * Writes {@code left = right} on one line if it fits, else with {@code right} on the next line.
     *
     * @param left  the declaration or variable.
     * @param right the value, with its semicolon.
     * @return this writer.
     */
    JavaWriter assign(final String left, final String right)
    {
        final String single = left + " = " + right;
        if (fits(single))
        {
            return line(single);
        }
        line(left + " =");
        return line(INDENT + right);
    }

    /**
     * Writes a Javadoc comment. Each argument is one paragraph or block tag, wrapped at {@value #WIDTH} columns
     * between words, never inside an inline tag such as <code>{&#64;link Entity#NULL}</code>; an empty string is an
     * empty comment line. The continuation lines of {@code @param}, {@code @return} and {@code @throws} line up with
     * their description. Lines from {@code <pre>} to {@code </pre>} are written as they are. A comment of one short
     * line is written on one line.
     *
     * @param given the paragraphs and block tags; null entries, and empty ones at the end, are skipped.
     * @return this writer.
     */
    JavaWriter javadoc(final String... given)
    {
        final java.util.List<String> lines = new java.util.ArrayList<>();
        for (final String text : given)
        {
            if (text != null)
            {
                lines.add(text);
            }
        }
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty())
        {
            lines.remove(lines.size() - 1);
        }
        final int width = WIDTH - INDENT.length() * indent - " * ".length();
        if (lines.size() == 1 && !lines.get(0).contains("<pre>") && "/** ".length() + lines.get(0).length() <= width)
        {
            return line("/** " + lines.get(0) + " */");
        }
        line("/**");
        boolean pre = false;
        for (final String text : lines)
        {
            pre |= text.startsWith("<pre>");
            if (text.isEmpty())
            {
                line(" *");
            }
            else if (pre)
            {
                line(" * " + text);
            }
            else
            {
                paragraph(text, width);
            }
            pre &= !text.contains("</pre>");
        }
        return line(" */");
    }

    /**
     * The source written so far.
     *
     * @return the text.
     */
    @Override
    public String toString()
    {
        return out.toString();
    }

    private void paragraph(final String text, final int width)
    {
        final int hang = hangOf(text);
        final String continuation = " * " + " ".repeat(hang);
        StringBuilder current = new StringBuilder(" * ").append(text, 0, hang);
        boolean empty = true;
        for (final String word : words(text.substring(hang)))
        {
            if (!empty && current.length() + 1 + word.length() > width + " * ".length())
            {
                line(current.toString());
                current = new StringBuilder(continuation);
                empty = true;
            }
            current.append(empty ? "" : " ").append(word);
            empty = false;
        }
        line(current.toString());
    }

    /** Where the description of a block tag starts, so its continuation lines can line up with it; 0 for prose. */
    private static int hangOf(final String text)
    {
        final int words;
        if (text.startsWith("@param ") || text.startsWith("@throws "))
        {
            words = 2;
        }
        else if (text.startsWith("@return "))
        {
            words = 1;
        }
        else
        {
            return 0;
        }
        int at = 0;
        for (int k = 0; k < words; k++)
        {
            at = text.indexOf(' ', at) + 1;
            while (at < text.length() && text.charAt(at) == ' ')
            {
                at++;
            }
        }
        return at;
    }

    /** The words of a paragraph, an inline tag such as <code>{&#64;link a.B text}</code> being one word. */
    private static List<String> words(final String text)
    {
        final List<String> words = new ArrayList<>();
        final StringBuilder word = new StringBuilder();
        int depth = 0;
        for (int k = 0; k < text.length(); k++)
        {
            final char c = text.charAt(k);
            if (c == ' ' && depth == 0)
            {
                if (word.length() > 0)
                {
                    words.add(word.toString());
                    word.setLength(0);
                }
                continue;
            }
            if (c == '{' && (depth > 0 || k + 1 < text.length() && text.charAt(k + 1) == '@'))
            {
                depth++;
            }
            else if (c == '}' && depth > 0)
            {
                depth--;
            }
            word.append(c);
        }
        if (word.length() > 0)
        {
            words.add(word.toString());
        }
        return words;
    }

    private boolean fits(final String text)
    {
        return INDENT.length() * indent + text.length() <= WIDTH;
    }

    private boolean endsWith(final String suffix)
    {
        return out.length() >= suffix.length() && out.substring(out.length() - suffix.length()).equals(suffix);
    }

    private void trimBlank()
    {
        while (endsWith("\n\n"))
        {
            out.setLength(out.length() - 1);
        }
    }
}

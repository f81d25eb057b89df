package dev.cairn.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader, enough for JMH's result files: objects become {@link LinkedHashMap}s, arrays
 * {@link ArrayList}s, numbers {@link Double}s (JMH also writes {@code NaN} and {@code Infinity} bare, and those are
 * read too), strings, booleans and null as themselves. Kept here so the bench module needs no JSON library.
 */
public final class Json
{
    private final String text;
    private int position;

    private Json(final String text)
    {
        this.text = text;
    }

    /**
     * Parses one JSON value.
     *
     * @param text the document.
     * @return the value: Map, List, Double, String, Boolean or null.
     * @throws IllegalArgumentException naming the offset and what was expected, if the text is not JSON.
     */
    public static Object parse(final String text)
    {
        final Json json = new Json(text);
        final Object value = json.value();
        json.skipWhitespace();
        if (json.position != text.length())
        {
            throw json.error("end of document");
        }
        return value;
    }

    private Object value()
    {
        skipWhitespace();
        if (position >= text.length())
        {
            throw error("a value");
        }
        final char c = text.charAt(position);
        switch (c)
        {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                expect("true");
                return Boolean.TRUE;
            case 'f':
                expect("false");
                return Boolean.FALSE;
            case 'n':
                expect("null");
                return null;
            case 'N':
                expect("NaN");
                return Double.NaN;
            case 'I':
                expect("Infinity");
                return Double.POSITIVE_INFINITY;
            default:
                return number();
        }
    }

    private Map<String, Object> object()
    {
        final Map<String, Object> map = new LinkedHashMap<>();
        position++;
        skipWhitespace();
        if (peek() == '}')
        {
            position++;
            return map;
        }
        while (true)
        {
            skipWhitespace();
            if (peek() != '"')
            {
                throw error("a member name in quotes");
            }
            final String name = string();
            skipWhitespace();
            if (peek() != ':')
            {
                throw error("':'");
            }
            position++;
            map.put(name, value());
            skipWhitespace();
            final char c = peek();
            position++;
            if (c == '}')
            {
                return map;
            }
            if (c != ',')
            {
                position--;
                throw error("',' or '}'");
            }
        }
    }

    private List<Object> array()
    {
        final List<Object> list = new ArrayList<>();
        position++;
        skipWhitespace();
        if (peek() == ']')
        {
            position++;
            return list;
        }
        while (true)
        {
            list.add(value());
            skipWhitespace();
            final char c = peek();
            position++;
            if (c == ']')
            {
                return list;
            }
            if (c != ',')
            {
                position--;
                throw error("',' or ']'");
            }
        }
    }

    private String string()
    {
        final StringBuilder out = new StringBuilder();
        position++;
        while (true)
        {
            if (position >= text.length())
            {
                throw error("a closing quote");
            }
            final char c = text.charAt(position++);
            if (c == '"')
            {
                return out.toString();
            }
            if (c != '\\')
            {
                out.append(c);
                continue;
            }
            if (position >= text.length())
            {
                throw error("an escape character");
            }
            final char escape = text.charAt(position++);
            switch (escape)
            {
                case '"':
                case '\\':
                case '/':
                    out.append(escape);
                    break;
                case 'b':
                    out.append('\b');
                    break;
                case 'f':
                    out.append('\f');
                    break;
                case 'n':
                    out.append('\n');
                    break;
                case 'r':
                    out.append('\r');
                    break;
                case 't':
                    out.append('\t');
                    break;
                case 'u':
                    if (position + 4 > text.length())
                    {
                        throw error("four hex digits");
                    }
                    out.append((char)Integer.parseInt(text.substring(position, position + 4), 16));
                    position += 4;
                    break;
                default:
                    position--;
                    throw error("a valid escape");
            }
        }
    }

    private Double number()
    {
        final int start = position;
        if (peek() == '-')
        {
            position++;
            if (text.startsWith("Infinity", position))
            {
                position += "Infinity".length();
                return Double.NEGATIVE_INFINITY;
            }
        }
        while (position < text.length() && "0123456789+-.eE".indexOf(text.charAt(position)) >= 0)
        {
            position++;
        }
        if (start == position)
        {
            throw error("a value");
        }
        try
        {
            return Double.valueOf(text.substring(start, position));
        }
        catch (final NumberFormatException ex)
        {
            position = start;
            throw error("a number");
        }
    }

    private void expect(final String word)
    {
        if (!text.startsWith(word, position))
        {
            throw error("'" + word + "'");
        }
        position += word.length();
    }

    private char peek()
    {
        return position < text.length() ? text.charAt(position) : '\0';
    }

    private void skipWhitespace()
    {
        while (position < text.length() && Character.isWhitespace(text.charAt(position)))
        {
            position++;
        }
    }

    private IllegalArgumentException error(final String expected)
    {
        final int end = Math.min(text.length(), position + 20);
        return new IllegalArgumentException(
            "not valid JSON at offset " + position + ": expected " + expected + " but found '" +
            text.substring(Math.min(position, text.length()), end) + "'");
    }
}

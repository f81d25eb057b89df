package dev.cairn.codegen;

import dev.cairn.codegen.fixture.Colour;
import dev.cairn.codegen.fixture.Everything;
import dev.cairn.codegen.fixture.Transform;
import dev.cairn.codegen.fixture.Vec2;
import dev.cairn.codegen.fixture.Wide;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The reference model's value of an {@link Everything} record: its 13 flattened columns as raw bits, so that NaN
 * payloads and -0.0 compare exactly ({@code Float.floatToRawIntBits}, {@code Double.doubleToRawLongBits}).
 */
final class Row implements Everything.Fields
{
    /** The flattened columns, in the generated storage's order. */
    enum Column
    {
        FLAG, B, S, C, I, L, F, D, COLOUR, WIDE, TRANSFORM_POS_X, TRANSFORM_POS_Y, TRANSFORM_ANGLE;

        static final Column[] ALL = values();
    }

    /** Number of columns. */
    static final int COLUMNS = Column.ALL.length;

    private static final float[] FLOATS = {
        0.0f, -0.0f, Float.NaN, Float.intBitsToFloat(0x7fc00001), Float.intBitsToFloat(0xffc12345),
        Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE,
        -Float.MAX_VALUE, Float.MIN_NORMAL, 1.0f, -1.0f};
    private static final double[] DOUBLES = {
        0.0, -0.0, Double.NaN, Double.longBitsToDouble(0x7ff8000000000001L),
        Double.longBitsToDouble(0xfff0123456789abcL), Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
        Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_NORMAL, 1.0, -1.0};
    private static final long[] LONGS = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE};
    private static final char[] CHARS = {Character.MIN_VALUE, Character.MAX_VALUE, '\ud800', '\udfff', 'A', '\u00e9'};
    private static final Colour[] COLOURS = Colour.values();
    private static final Wide[] WIDES = Wide.values();

    private final long[] bits;

    private Row(final long[] bits)
    {
        this.bits = bits;
    }

    /**
     * The columns of any record with {@link Everything.Fields}.
     *
     * @param fields the record.
     * @return its row.
     */
    static Row of(final Everything.Fields fields)
    {
        final long[] bits = new long[COLUMNS];
        bits[Column.FLAG.ordinal()] = fields.flag() ? 1 : 0;
        bits[Column.B.ordinal()] = fields.b();
        bits[Column.S.ordinal()] = fields.s();
        bits[Column.C.ordinal()] = fields.c();
        bits[Column.I.ordinal()] = fields.i();
        bits[Column.L.ordinal()] = fields.l();
        bits[Column.F.ordinal()] = Float.floatToRawIntBits(fields.f());
        bits[Column.D.ordinal()] = Double.doubleToRawLongBits(fields.d());
        bits[Column.COLOUR.ordinal()] = fields.colour().ordinal();
        bits[Column.WIDE.ordinal()] = fields.wide().ordinal();
        bits[Column.TRANSFORM_POS_X.ordinal()] = Float.floatToRawIntBits(fields.transform().pos().x());
        bits[Column.TRANSFORM_POS_Y.ordinal()] = Float.floatToRawIntBits(fields.transform().pos().y());
        bits[Column.TRANSFORM_ANGLE.ordinal()] = Float.floatToRawIntBits(fields.transform().angle());
        return new Row(bits);
    }

    /**
     * A random row: each column is an extreme (NaN with payloads, -0.0, infinities, MIN/MAX, char extremes, first and
     * last enum constants) about half the time, else uniformly random.
     *
     * @param random the source.
     * @return the row.
     */
    static Row random(final SplittableRandom random)
    {
        final long[] bits = new long[COLUMNS];
        final boolean extreme = random.nextBoolean();
        bits[Column.FLAG.ordinal()] = random.nextInt(2);
        bits[Column.B.ordinal()] = extreme ? pick(random, Byte.MIN_VALUE, Byte.MAX_VALUE, 0) : (byte)random.nextInt();
        bits[Column.S.ordinal()] = extreme ? pick(random, Short.MIN_VALUE, Short.MAX_VALUE, -1) :
            (short)random.nextInt();
        bits[Column.C.ordinal()] = extreme ? CHARS[random.nextInt(CHARS.length)] : (char)random.nextInt();
        bits[Column.I.ordinal()] = extreme ? pick(random, Integer.MIN_VALUE, Integer.MAX_VALUE, -1) :
            random.nextInt();
        bits[Column.L.ordinal()] = extreme ? LONGS[random.nextInt(LONGS.length)] : random.nextLong();
        bits[Column.F.ordinal()] = floatBits(random, extreme);
        bits[Column.D.ordinal()] = extreme ? Double.doubleToRawLongBits(DOUBLES[random.nextInt(DOUBLES.length)]) :
            Double.doubleToRawLongBits(random.nextDouble() * 2e6 - 1e6);
        bits[Column.COLOUR.ordinal()] = random.nextInt(COLOURS.length);
        bits[Column.WIDE.ordinal()] = extreme ? pick(random, 0, WIDES.length - 1, 255) :
            random.nextInt(WIDES.length);
        bits[Column.TRANSFORM_POS_X.ordinal()] = floatBits(random, extreme);
        bits[Column.TRANSFORM_POS_Y.ordinal()] = floatBits(random, random.nextBoolean());
        bits[Column.TRANSFORM_ANGLE.ordinal()] = floatBits(random, extreme);
        return new Row(bits);
    }

    /**
     * This row with the columns in {@code mask} taken from {@code source}.
     *
     * @param source where the chosen columns come from.
     * @param mask   bit {@code k} set takes column {@code k}.
     * @return a new row.
     */
    Row with(final Row source, final int mask)
    {
        final long[] merged = bits.clone();
        for (int k = 0; k < COLUMNS; k++)
        {
            if ((mask & (1 << k)) != 0)
            {
                merged[k] = source.bits[k];
            }
        }
        return new Row(merged);
    }

    /**
     * The raw bits of one column.
     *
     * @param column the column.
     * @return its bits.
     */
    long bits(final Column column)
    {
        return bits[column.ordinal()];
    }

    /**
     * Orders two rows by one column the way the generated {@code comparingX()} must: {@code Float.compare},
     * {@code Boolean.compare}, enum ordinal and so on.
     *
     * @param left   a row.
     * @param right  another row.
     * @param column the column.
     * @return negative, zero or positive.
     */
    static int compare(final Row left, final Row right, final Column column)
    {
        switch (column)
        {
            case FLAG:
                return Boolean.compare(left.flag(), right.flag());
            case C:
                return Character.compare(left.c(), right.c());
            case F:
            case TRANSFORM_POS_X:
            case TRANSFORM_POS_Y:
            case TRANSFORM_ANGLE:
                return Float.compare(
                    Float.intBitsToFloat((int)left.bits(column)), Float.intBitsToFloat((int)right.bits(column)));
            case D:
                return Double.compare(left.d(), right.d());
            default:
                return Long.compare(left.bits(column), right.bits(column));
        }
    }

    @Override
    public boolean flag()
    {
        return bits[Column.FLAG.ordinal()] != 0;
    }

    @Override
    public byte b()
    {
        return (byte)bits[Column.B.ordinal()];
    }

    @Override
    public short s()
    {
        return (short)bits[Column.S.ordinal()];
    }

    @Override
    public char c()
    {
        return (char)bits[Column.C.ordinal()];
    }

    @Override
    public int i()
    {
        return (int)bits[Column.I.ordinal()];
    }

    @Override
    public long l()
    {
        return bits[Column.L.ordinal()];
    }

    @Override
    public float f()
    {
        return Float.intBitsToFloat((int)bits[Column.F.ordinal()]);
    }

    @Override
    public double d()
    {
        return Double.longBitsToDouble(bits[Column.D.ordinal()]);
    }

    @Override
    public Colour colour()
    {
        return COLOURS[(int)bits[Column.COLOUR.ordinal()]];
    }

    @Override
    public Wide wide()
    {
        return WIDES[(int)bits[Column.WIDE.ordinal()]];
    }

    @Override
    public Transform transform()
    {
        return new Transform(
            new Vec2(
                Float.intBitsToFloat((int)bits[Column.TRANSFORM_POS_X.ordinal()]),
                Float.intBitsToFloat((int)bits[Column.TRANSFORM_POS_Y.ordinal()])),
            Float.intBitsToFloat((int)bits[Column.TRANSFORM_ANGLE.ordinal()]));
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof Row && Arrays.equals(bits, ((Row)other).bits);
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(bits);
    }

    @Override
    public String toString()
    {
        return "Row[flag=" + flag() + ", b=" + b() + ", s=" + s() + ", c=\\u" + String.format("%04x", (int)c()) +
            ", i=" + i() + ", l=" + l() + ", f=" + floatText(f()) + ", d=" + doubleText(d()) + ", colour=" +
            colour() + ", wide=" + wide() + ", pos=(" + floatText(transform().pos().x()) + ", " +
            floatText(transform().pos().y()) + "), angle=" + floatText(transform().angle()) + "]";
    }

    private static String floatText(final float value)
    {
        return Float.isNaN(value) ? "NaN(0x" + Integer.toHexString(Float.floatToRawIntBits(value)) + ")" :
            Float.toString(value);
    }

    private static String doubleText(final double value)
    {
        return Double.isNaN(value) ? "NaN(0x" + Long.toHexString(Double.doubleToRawLongBits(value)) + ")" :
            Double.toString(value);
    }

    private static long floatBits(final SplittableRandom random, final boolean extreme)
    {
        return Float.floatToRawIntBits(extreme ? FLOATS[random.nextInt(FLOATS.length)] :
            (float)(random.nextDouble() * 2000 - 1000));
    }

    private static long pick(final SplittableRandom random, final long first, final long second, final long third)
    {
        final int choice = random.nextInt(3);
        return choice == 0 ? first : choice == 1 ? second : third;
    }
}

package dev.cairn.codegen;

import dev.cairn.codegen.fixture.Everything.InPlace;
import dev.cairn.codegen.fixture.Everything_InPlaceStorage;
import dev.cairn.codegen.fixture.Transform;
import dev.cairn.codegen.fixture.Vec2;
import dev.cairn.set.IndexComparator;
import dev.cairn.storage.ComponentStorage;

/** Drives {@link Everything_InPlaceStorage} through every generated accessor. */
final class InPlaceSubject implements StorageSubject
{
    private final Everything_InPlaceStorage storage;
    private final Everything_InPlaceStorage.Ref ref;

    InPlaceSubject(final Everything_InPlaceStorage storage)
    {
        this.storage = storage;
        this.ref = new Everything_InPlaceStorage.Ref(storage);
    }

    static InPlace record(final Row r)
    {
        return new InPlace(r.flag(), r.b(), r.s(), r.c(), r.i(), r.l(), r.f(), r.d(), r.colour(), r.wide(),
            r.transform());
    }

    @Override
    public ComponentStorage<?> storage()
    {
        return storage;
    }

    @Override
    public boolean hasColumns()
    {
        return true;
    }

    @Override
    public void emplace(final long entity, final Row r)
    {
        storage.emplace(entity, r.flag(), r.b(), r.s(), r.c(), r.i(), r.l(), r.f(), r.d(), r.colour(),
            r.wide(), r.transform().pos().x(), r.transform().pos().y(), r.transform().angle());
    }

    @Override
    public void add(final long entity, final Row r)
    {
        storage.add(entity, record(r));
    }

    @Override
    public void patch(final long entity, final Row r)
    {
        storage.patch(entity, r.flag(), r.b(), r.s(), r.c(), r.i(), r.l(), r.f(), r.d(), r.colour(), r.wide(),
            r.transform().pos().x(), r.transform().pos().y(), r.transform().angle());
    }

    @Override
    public void patchRecord(final long entity, final Row r)
    {
        storage.patch(entity, record(r));
    }

    @Override
    public Row read(final long e)
    {
        final Everything_InPlaceStorage s = storage;
        return Row.of(new InPlace(s.flag(e), s.b(e), s.s(e), s.c(e), s.i(e), s.l(e), s.f(e), s.d(e),
            s.colour(e), s.wide(e),
            new Transform(new Vec2(s.transformPosX(e), s.transformPosY(e)), s.transformAngle(e))));
    }

    @Override
    public Row readAt(final int i)
    {
        final Everything_InPlaceStorage s = storage;
        return Row.of(new InPlace(s.flagAt(i), s.bAt(i), s.sAt(i), s.cAt(i), s.iAt(i), s.lAt(i), s.fAt(i),
            s.dAt(i), s.colourAt(i), s.wideAt(i),
            new Transform(new Vec2(s.transformPosXAt(i), s.transformPosYAt(i)), s.transformAngleAt(i))));
    }

    @Override
    public Row readRef(final int index)
    {
        final Everything_InPlaceStorage.Ref r = ref.moveTo(index);
        return Row.of(new InPlace(r.flag(), r.b(), r.s(), r.c(), r.i(), r.l(), r.f(), r.d(), r.colour(),
            r.wide(), new Transform(new Vec2(r.transformPosX(), r.transformPosY()), r.transformAngle())));
    }

    @Override
    public Row get(final long entity)
    {
        return Row.of(storage.get(entity));
    }

    @Override
    public Row getAt(final int index)
    {
        return Row.of(storage.getAt(index));
    }

    @Override
    public void write(final long e, final Row r, final int mask)
    {
        final Everything_InPlaceStorage s = storage;
        if (has(mask, Row.Column.FLAG)) s.flag(e, r.flag());
        if (has(mask, Row.Column.B)) s.b(e, r.b());
        if (has(mask, Row.Column.S)) s.s(e, r.s());
        if (has(mask, Row.Column.C)) s.c(e, r.c());
        if (has(mask, Row.Column.I)) s.i(e, r.i());
        if (has(mask, Row.Column.L)) s.l(e, r.l());
        if (has(mask, Row.Column.F)) s.f(e, r.f());
        if (has(mask, Row.Column.D)) s.d(e, r.d());
        if (has(mask, Row.Column.COLOUR)) s.colour(e, r.colour());
        if (has(mask, Row.Column.WIDE)) s.wide(e, r.wide());
        if (has(mask, Row.Column.TRANSFORM_POS_X)) s.transformPosX(e, r.transform().pos().x());
        if (has(mask, Row.Column.TRANSFORM_POS_Y)) s.transformPosY(e, r.transform().pos().y());
        if (has(mask, Row.Column.TRANSFORM_ANGLE)) s.transformAngle(e, r.transform().angle());
    }

    @Override
    public void writeAt(final int i, final Row r, final int mask)
    {
        final Everything_InPlaceStorage s = storage;
        if (has(mask, Row.Column.FLAG)) s.flagAt(i, r.flag());
        if (has(mask, Row.Column.B)) s.bAt(i, r.b());
        if (has(mask, Row.Column.S)) s.sAt(i, r.s());
        if (has(mask, Row.Column.C)) s.cAt(i, r.c());
        if (has(mask, Row.Column.I)) s.iAt(i, r.i());
        if (has(mask, Row.Column.L)) s.lAt(i, r.l());
        if (has(mask, Row.Column.F)) s.fAt(i, r.f());
        if (has(mask, Row.Column.D)) s.dAt(i, r.d());
        if (has(mask, Row.Column.COLOUR)) s.colourAt(i, r.colour());
        if (has(mask, Row.Column.WIDE)) s.wideAt(i, r.wide());
        if (has(mask, Row.Column.TRANSFORM_POS_X)) s.transformPosXAt(i, r.transform().pos().x());
        if (has(mask, Row.Column.TRANSFORM_POS_Y)) s.transformPosYAt(i, r.transform().pos().y());
        if (has(mask, Row.Column.TRANSFORM_ANGLE)) s.transformAngleAt(i, r.transform().angle());
    }

    @Override
    public void writeRef(final int index, final Row r, final int mask)
    {
        final Everything_InPlaceStorage.Ref f = ref.moveTo(index);
        if (has(mask, Row.Column.FLAG)) f.flag(r.flag());
        if (has(mask, Row.Column.B)) f.b(r.b());
        if (has(mask, Row.Column.S)) f.s(r.s());
        if (has(mask, Row.Column.C)) f.c(r.c());
        if (has(mask, Row.Column.I)) f.i(r.i());
        if (has(mask, Row.Column.L)) f.l(r.l());
        if (has(mask, Row.Column.F)) f.f(r.f());
        if (has(mask, Row.Column.D)) f.d(r.d());
        if (has(mask, Row.Column.COLOUR)) f.colour(r.colour());
        if (has(mask, Row.Column.WIDE)) f.wide(r.wide());
        if (has(mask, Row.Column.TRANSFORM_POS_X)) f.transformPosX(r.transform().pos().x());
        if (has(mask, Row.Column.TRANSFORM_POS_Y)) f.transformPosY(r.transform().pos().y());
        if (has(mask, Row.Column.TRANSFORM_ANGLE)) f.transformAngle(r.transform().angle());
    }

    @Override
    public IndexComparator comparing(final Row.Column column)
    {
        switch (column)
        {
            case FLAG: return storage.comparingFlag();
            case B: return storage.comparingB();
            case S: return storage.comparingS();
            case C: return storage.comparingC();
            case I: return storage.comparingI();
            case L: return storage.comparingL();
            case F: return storage.comparingF();
            case D: return storage.comparingD();
            case COLOUR: return storage.comparingColour();
            case WIDE: return storage.comparingWide();
            case TRANSFORM_POS_X: return storage.comparingTransformPosX();
            case TRANSFORM_POS_Y: return storage.comparingTransformPosY();
            default: return storage.comparingTransformAngle();
        }
    }

    private static boolean has(final int mask, final Row.Column column)
    {
        return (mask & (1 << column.ordinal())) != 0;
    }
}

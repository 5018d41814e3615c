package io.sluice.contracts;

/** Order type. The engine trades MARKET and LIMIT; the others are valid FIX values it rejects (FIX tag 40). */
public enum OrdType implements FixCoded {
    MARKET('1'),
    LIMIT('2'),
    STOP('3'),
    STOP_LIMIT('4'),
    PEGGED('P');

    private static final FixCodeTable<OrdType> TABLE = new FixCodeTable<>(values());

    private final char fixCode;

    OrdType(final char fixCode) {
        this.fixCode = fixCode;
    }

    @Override
    public char fixCode() {
        return fixCode;
    }

    /** @return the constant whose FIX value is {@code code}, or {@code null} if there is none. */
    public static OrdType fromFixCode(final int code) {
        return TABLE.of(code);
    }
}

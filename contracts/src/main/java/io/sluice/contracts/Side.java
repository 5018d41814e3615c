package io.sluice.contracts;

/** Side of an order. The engine trades BUY and SELL; the others are valid FIX values it rejects (FIX tag 54). */
public enum Side implements FixCoded {
    BUY('1'),
    SELL('2'),
    BUY_MINUS('3'),
    SELL_PLUS('4'),
    SELL_SHORT('5'),
    SELL_SHORT_EXEMPT('6'),
    CROSS('8');

    private static final FixCodeTable<Side> TABLE = new FixCodeTable<>(values());

    private final char fixCode;

    Side(final char fixCode) {
        this.fixCode = fixCode;
    }

    @Override
    public char fixCode() {
        return fixCode;
    }

    /** @return the constant whose FIX value is {@code code}, or {@code null} if there is none. */
    public static Side fromFixCode(final int code) {
        return TABLE.of(code);
    }
}

package io.sluice.contracts;

/** Which request a cancel reject answers (FIX tag 434). */
public enum CxlRejResponseTo implements FixCoded {
    ORDER_CANCEL_REQUEST('1'),
    ORDER_CANCEL_REPLACE_REQUEST('2');

    private static final FixCodeTable<CxlRejResponseTo> TABLE = new FixCodeTable<>(values());

    private final char fixCode;

    CxlRejResponseTo(final char fixCode) {
        this.fixCode = fixCode;
    }

    @Override
    public char fixCode() {
        return fixCode;
    }

    /** @return the constant whose FIX value is {@code code}, or {@code null} if there is none. */
    public static CxlRejResponseTo fromFixCode(final int code) {
        return TABLE.of(code);
    }
}

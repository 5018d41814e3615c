package io.sluice.contracts;

/** What an execution report reports (FIX tag 150). */
public enum ExecType implements FixCoded {
    NEW('0'),
    CANCELED('4'),
    REPLACED('5'),
    REJECTED('8'),
    EXPIRED('C'),
    TRADE('F');

    private static final FixCodeTable<ExecType> TABLE = new FixCodeTable<>(values());

    private final char fixCode;

    ExecType(final char fixCode) {
        this.fixCode = fixCode;
    }

    @Override
    public char fixCode() {
        return fixCode;
    }

    /** @return the constant whose FIX value is {@code code}, or {@code null} if there is none. */
    public static ExecType fromFixCode(final int code) {
        return TABLE.of(code);
    }
}

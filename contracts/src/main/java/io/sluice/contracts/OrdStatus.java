package io.sluice.contracts;

/** State of an order after the event an execution report describes (FIX tag 39). */
public enum OrdStatus implements FixCoded {
    NEW('0'),
    PARTIALLY_FILLED('1'),
    FILLED('2'),
    CANCELED('4'),
    REPLACED('5'),
    REJECTED('8'),
    EXPIRED('C');

    private static final FixCodeTable<OrdStatus> TABLE = new FixCodeTable<>(values());

    private final char fixCode;

    OrdStatus(final char fixCode) {
        this.fixCode = fixCode;
    }

    @Override
    public char fixCode() {
        return fixCode;
    }

    /** @return the constant whose FIX value is {@code code}, or {@code null} if there is none. */
    public static OrdStatus fromFixCode(final int code) {
        return TABLE.of(code);
    }
}

package io.sluice.contracts;

/** Time in force. The engine supports DAY, IOC and FOK; the others are valid FIX values it rejects (FIX tag 59). */
public enum TimeInForce implements FixCoded {
    DAY('0'),
    GOOD_TILL_CANCEL('1'),
    AT_THE_OPENING('2'),
    IMMEDIATE_OR_CANCEL('3'),
    FILL_OR_KILL('4'),
    GOOD_TILL_CROSSING('5'),
    GOOD_TILL_DATE('6'),
    AT_THE_CLOSE('7');

    private static final FixCodeTable<TimeInForce> TABLE = new FixCodeTable<>(values());

    private final char fixCode;

    TimeInForce(final char fixCode) {
        this.fixCode = fixCode;
    }

    @Override
    public char fixCode() {
        return fixCode;
    }

    /** @return the constant whose FIX value is {@code code}, or {@code null} if there is none. */
    public static TimeInForce fromFixCode(final int code) {
        return TABLE.of(code);
    }
}

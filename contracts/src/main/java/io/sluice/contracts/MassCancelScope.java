package io.sluice.contracts;

/**
 * Which of a session's resting orders a mass cancel takes: FIX MassCancelRequestType (530) and, when it is not
 * refused, MassCancelResponse (531). An optional {@link Side} narrows either scope further.
 */
public enum MassCancelScope implements FixCoded {
    /** Every resting order of the session in one instrument (530=1). */
    SECURITY('1'),
    /** Every resting order of the session (530=7). */
    ALL('7');

    private static final FixCodeTable<MassCancelScope> TABLE = new FixCodeTable<>(values());

    private final char fixCode;

    MassCancelScope(final char fixCode) {
        this.fixCode = fixCode;
    }

    @Override
    public char fixCode() {
        return fixCode;
    }

    /** @return the constant whose FIX value is {@code code}, or {@code null} if there is none. */
    public static MassCancelScope fromFixCode(final int code) {
        return TABLE.of(code);
    }
}

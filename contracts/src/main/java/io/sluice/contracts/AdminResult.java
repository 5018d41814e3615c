package io.sluice.contracts;

/** How an admin command was answered ({@link AdminOutcome}). */
public enum AdminResult {
    /** Carried out. */
    ACKNOWLEDGED,
    /** Not carried out; the outcome's {@link AdminRefusal} says why. */
    REFUSED,
    /** The engine's answer to a command a gateway carries out ({@link AdminAction.Actor#GATEWAY}): not its job. */
    PASSED_TO_GATEWAY;

    private static final AdminResult[] VALUES = values();

    /** @return the result with this ordinal, or {@code null} if out of range (as stored in the journal). */
    public static AdminResult fromOrdinal(final int ordinal) {
        return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : null;
    }
}

package io.sluice.gateway.codec;

/**
 * Which data-dictionary checks {@link FixMessage} applies to a message it parses, with the names QuickFIX/J users
 * know. {@link #STANDARD} is what the FIX 4.4 standard asks of a session (every check on, user-defined tags of
 * 5000 and above allowed); {@link #STRUCTURE_ONLY} only finds the fields and groups (a client reading what a
 * Sluice gateway sent it).
 *
 * @param validateIncomingMessage       check against the dictionary at all; false leaves only the structure
 *                                      (field syntax, header first, duplicates, repeating groups)
 * @param validateUserDefinedFields     reject user-defined tags (5000 and above), which FIX 4.4 does not define,
 *                                      with SessionRejectReason 0; false (standard) allows them anywhere
 * @param allowUnknownMsgFields         accept FIX 4.4 tags the message type does not define (no reason 2)
 * @param validateFieldsOutOfOrder      reject header fields after the body, body fields after the trailer (14)
 * @param validateUnorderedGroupFields  reject repeating group members out of their defined order (15); the first
 *                                      field of every instance must be the group's delimiter in any case
 * @param validateFieldsHaveValues      reject a field with an empty value (4)
 */
public record FixValidation(boolean validateIncomingMessage, boolean validateUserDefinedFields,
                            boolean allowUnknownMsgFields, boolean validateFieldsOutOfOrder,
                            boolean validateUnorderedGroupFields, boolean validateFieldsHaveValues) {
    /** The FIX 4.4 standard's checks. */
    public static final FixValidation STANDARD = new FixValidation(true, false, false, true, true, true);
    /** Structure only: fields, header order, duplicates and repeating groups. */
    public static final FixValidation STRUCTURE_ONLY = new FixValidation(false, false, true, true, false, true);

    /** The first tag number of the user-defined range. */
    public static final int USER_DEFINED_TAG_MIN = 5000;
}

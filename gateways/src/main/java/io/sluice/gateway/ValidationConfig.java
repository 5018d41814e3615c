package io.sluice.gateway;

import io.sluice.gateway.codec.FixValidation;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;

/**
 * The {@code validation} section of a gateway's YAML: which data-dictionary checks every client message goes
 * through, under the names of QuickFIX/J's settings (in camel case). Absent keys keep the FIX 4.4 standard's
 * behaviour ({@link FixValidation#STANDARD}).
 */
public final class ValidationConfig extends SelfDescribingMarshallable {
    private boolean validateIncomingMessage = FixValidation.STANDARD.validateIncomingMessage();
    private boolean validateUserDefinedFields = FixValidation.STANDARD.validateUserDefinedFields();
    private boolean allowUnknownMsgFields = FixValidation.STANDARD.allowUnknownMsgFields();
    private boolean validateFieldsOutOfOrder = FixValidation.STANDARD.validateFieldsOutOfOrder();
    private boolean validateUnorderedGroupFields = FixValidation.STANDARD.validateUnorderedGroupFields();
    private boolean validateFieldsHaveValues = FixValidation.STANDARD.validateFieldsHaveValues();

    /** @return the checks, as the parser takes them. */
    public FixValidation validation() {
        return new FixValidation(validateIncomingMessage, validateUserDefinedFields, allowUnknownMsgFields,
                validateFieldsOutOfOrder, validateUnorderedGroupFields, validateFieldsHaveValues);
    }
}

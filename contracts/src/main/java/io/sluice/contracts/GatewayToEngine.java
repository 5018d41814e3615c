package io.sluice.contracts;

import net.openhft.chronicle.bytes.MethodId;

/**
 * Commands a gateway appends to its own journal and the engine consumes. A call on a Chronicle method
 * writer appends one excerpt; a method reader on a tailer dispatches it back to an implementation.
 * Argument objects are reused by writers and readers alike: never keep a reference past the call.
 */
public interface GatewayToEngine {
    @MethodId(RecordLayout.NEW_ORDER)
    void newOrder(NewOrder order);

    @MethodId(RecordLayout.CANCEL_ORDER)
    void cancelOrder(CancelOrder cancel);

    @MethodId(RecordLayout.REPLACE_ORDER)
    void replaceOrder(ReplaceOrder replace);

    @MethodId(RecordLayout.MASS_CANCEL)
    void massCancel(MassCancel massCancel);
}

package io.sluice.contracts;

import net.openhft.chronicle.bytes.MethodId;

/**
 * What a gateway records in its delivery journal as it sends reports out over FIX. A gateway may add
 * methods of its own (session state, resend store) to that journal through another interface; readers
 * of deliveries ignore those.
 */
public interface GatewayDeliveries {
    @MethodId(RecordLayout.DELIVERED)
    void delivered(Delivery delivery);
}

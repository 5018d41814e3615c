package io.sluice.bench.fix;

/**
 * Who a FIX client session is: its SenderCompID, the acceptor's CompID (TargetCompID), and the
 * Username (553) and Password (554) it logs on with (empty strings to send none).
 */
public record SessionIdentity(String senderCompId, String targetCompId, String username, String password) {
}

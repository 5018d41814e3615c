package io.sluice.tools.fix;

/**
 * Who a FIX client session is. Its SenderCompID, the acceptor's CompID (TargetCompID), and the Username (553) and
 * Password (554) it logs on with (empty strings to send none).
 */
public record SessionIdentity(String senderCompId, String targetCompId, String username, String password) {
    /** @return the identity of a client of a Sluice gateway that logs on with its CompID as Username. */
    public static SessionIdentity ofSluiceClient(final String compId, final String password) {
        return new SessionIdentity(compId, SluiceDeployment.GATEWAY_COMP_ID, compId, password);
    }
}

package io.sluice.gateway.session;

/**
 * Who may log on to one acceptor session. The client's SenderCompID, the gateway's CompID the client must address
 * (TargetCompID), and the credentials its Logon must carry (Username 553, Password 554).
 *
 * @param clientCompId  the client's SenderCompID, at most 10 characters of the ShortText alphabet
 * @param gatewayCompId the TargetCompID the client uses for the gateway
 * @param username      the required Username (553), or null to not check it
 * @param password      the required Password (554)
 */
public record SessionIdentity(String clientCompId, String gatewayCompId, String username, String password) {
}

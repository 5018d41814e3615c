package io.sluice.gateway.session;

/**
 * When a session starts both sequences again at 1 by itself, as a counterparty configures it, with QuickFIX/J's names.
 * At every Logon (ResetOnLogon), after a Logout exchange (ResetOnLogout), on any disconnection (ResetOnDisconnect), and
 * at a time of day (UTC). Every such reset is journaled like a ResetSeqNumFlag reset, so a
 * restarted gateway agrees. {@link #NONE}, the default, keeps sequence numbers across logons and restarts: a client
 * that logs on again with MsgSeqNum 1 (and no ResetSeqNumFlag) is then logged out as too low.
 *
 * @param onLogon            reset when a Logon arrives, before its MsgSeqNum is checked
 * @param onLogout           reset after a Logout exchange, whoever started it
 * @param onDisconnect       reset whenever the session's connection ends
 * @param dailyResetSecond   second of the UTC day to reset at (a logged-on client is logged out first), or
 *                           {@link #NO_DAILY_RESET}
 */
public record ResetPolicy(boolean onLogon, boolean onLogout, boolean onDisconnect, int dailyResetSecond) {
    /** {@link #dailyResetSecond} of a policy without a daily reset. */
    public static final int NO_DAILY_RESET = -1;
    /** Sequence numbers persist. */
    public static final ResetPolicy NONE = new ResetPolicy(false, false, false, NO_DAILY_RESET);
    private static final long MILLIS_PER_DAY = 86_400_000L;

    public ResetPolicy {
        if (dailyResetSecond < NO_DAILY_RESET || dailyResetSecond >= 86_400) {
            throw new IllegalArgumentException("the daily reset must be a second of the day, got " + dailyResetSecond);
        }
    }

    /**
     * @param time HH:MM:SS, UTC
     * @return the second of the day
     * @throws IllegalArgumentException naming the expected form
     */
    public static int secondOfDay(final String time) {
        if (time.length() != 8 || time.charAt(2) != ':' || time.charAt(5) != ':') {
            throw new IllegalArgumentException("resetTime must be HH:MM:SS (UTC), got '" + time + "'");
        }
        try {
            final int hours = Integer.parseInt(time.substring(0, 2));
            final int minutes = Integer.parseInt(time.substring(3, 5));
            final int seconds = Integer.parseInt(time.substring(6, 8));
            if (hours > 23 || minutes > 59 || seconds > 59 || hours < 0 || minutes < 0 || seconds < 0) {
                throw new IllegalArgumentException("resetTime must be HH:MM:SS (UTC), got '" + time + "'");
            }
            return hours * 3600 + minutes * 60 + seconds;
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("resetTime must be HH:MM:SS (UTC), got '" + time + "'", e);
        }
    }

    /** @return the first daily reset strictly after {@code epochMillis}, or Long.MAX_VALUE without one */
    public long nextDailyReset(final long epochMillis) {
        if (dailyResetSecond == NO_DAILY_RESET) {
            return Long.MAX_VALUE;
        }
        final long day = Math.floorDiv(epochMillis, MILLIS_PER_DAY) * MILLIS_PER_DAY;
        final long today = day + dailyResetSecond * 1000L;
        return today > epochMillis ? today : today + MILLIS_PER_DAY;
    }
}

package io.sluice.tools.admin;

import io.sluice.contracts.AdminCommand;
import io.sluice.gateway.codec.ShortText;

/** What {@code ./sluice admin} prints after "acknowledged: " for each action: what was done, and to how many. */
final class OutcomeText {
    private OutcomeText() {
    }

    static String acknowledged(final AdminCommand command, final long affected) {
        final String symbol = command.symbol() == 0 ? "every instrument" : ShortText.toString(command.symbol());
        final String session = command.gatewayId() + ":" + ShortText.toString(command.session());
        return switch (command.action()) {
            case CANCEL_SESSION, CANCEL_INSTRUMENT, CANCEL_ALL -> orders(affected) + " canceled";
            case KILL_SWITCH_ON -> "kill switch on, " + orders(affected) + " canceled; new orders are rejected until "
                    + "kill-switch off";
            case KILL_SWITCH_OFF -> "kill switch off, new orders accepted";
            case HALT -> symbol + " halted";
            case RESUME -> symbol + " resumed";
            case OPEN_TRADING -> "trading open for " + symbol;
            case CLOSE_TRADING -> "trading closed for " + symbol + ", " + orders(affected) + " expired";
            case DISCONNECT -> session + " logged out and disconnected";
            case FIRM_KILL_SWITCH_ON -> "kill switch on for firm " + firm(command) + ", " + orders(affected)
                    + " canceled; its new orders are rejected until kill-switch off --firm " + firm(command);
            case FIRM_KILL_SWITCH_OFF -> "kill switch off for firm " + firm(command) + ", its orders accepted";
            case SESSION_KILL_SWITCH_ON -> "kill switch on for session " + session + ", " + orders(affected)
                    + " canceled; its new orders are rejected until kill-switch off --session " + session;
            case SESSION_KILL_SWITCH_OFF -> "kill switch off for session " + session + ", its orders accepted";
            case SET_FIRM_LIMIT -> "firm " + firm(command) + " " + command.limit().configName() + " "
                    + limitValue(command) + " from its next order on";
            case LEASE_LAPSED -> "the primary's lease lapsed: new orders and replaces are rejected until it is regained";
            case LEASE_REGAINED -> "the primary's lease is held again: new orders accepted";
            case FENCED -> "the primary was fenced by a newer one: new orders and replaces are rejected for good";
            case SET_SEQUENCE -> session + " next MsgSeqNum out " + command.nextSenderSeqNum() + ", in "
                    + command.nextTargetSeqNum() + (affected == 0 ? "" : "; " + affected + " undelivered messages stored "
                    + "again from " + command.nextSenderSeqNum() + ", resent when the client asks");
        };
    }

    private static String firm(final AdminCommand command) {
        return ShortText.toString(command.firm());
    }

    private static String limitValue(final AdminCommand command) {
        final StringBuilder text = new StringBuilder();
        command.limit().appendValue(text, command.limitValue());
        return text.toString();
    }

    private static String orders(final long count) {
        return count + (count == 1 ? " order" : " orders");
    }
}

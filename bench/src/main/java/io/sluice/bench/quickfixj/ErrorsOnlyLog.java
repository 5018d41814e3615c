package io.sluice.bench.quickfixj;

import quickfix.Log;
import quickfix.SessionID;

/**
 * A QuickFIX/J session log that drops the message traffic and prints only error events to stderr: the
 * baseline must not pay for logging every message (QuickFIX/J's default screen log would dominate it), yet a
 * failing session should still say why.
 */
final class ErrorsOnlyLog implements Log {
    private final SessionID sessionId;

    ErrorsOnlyLog(final SessionID sessionId) {
        this.sessionId = sessionId;
    }

    @Override
    public void clear() {
    }

    @Override
    public void onIncoming(final String message) {
    }

    @Override
    public void onOutgoing(final String message) {
    }

    @Override
    public void onEvent(final String text) {
    }

    @Override
    public void onErrorEvent(final String text) {
        System.err.println("QuickFIX/J " + sessionId + ": " + text);
    }
}

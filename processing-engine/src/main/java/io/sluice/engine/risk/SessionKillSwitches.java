package io.sluice.engine.risk;

/**
 * The sessions whose own kill switch is on (SESSION_KILL_SWITCH_ON): their new orders and replaces are rejected until
 * it is turned off. A session is a gateway and a client SenderCompID. A small fixed table searched in order: it is
 * empty, and costs one comparison per order, unless an operator stopped a session.
 */
public final class SessionKillSwitches {
    /** How many sessions may have their kill switch on at once. */
    public static final int CAPACITY = 256;

    private final int[] gatewayIds = new int[CAPACITY];
    private final long[] sessions = new long[CAPACITY];
    private int count;

    /** @return true if the kill switch of session {@code session} of gateway {@code gatewayId} is on */
    public boolean isOn(final int gatewayId, final long session) {
        return count != 0 && indexOf(gatewayId, session) >= 0;
    }

    /** @return false if it was on already or the table is full ({@link #isFull}), else turns it on */
    public boolean turnOn(final int gatewayId, final long session) {
        if (count == CAPACITY || indexOf(gatewayId, session) >= 0) {
            return false;
        }
        gatewayIds[count] = gatewayId;
        sessions[count] = session;
        count++;
        return true;
    }

    /** @return false if it was off, else turns it off */
    public boolean turnOff(final int gatewayId, final long session) {
        final int i = indexOf(gatewayId, session);
        if (i < 0) {
            return false;
        }
        count--;
        gatewayIds[i] = gatewayIds[count];
        sessions[i] = sessions[count];
        return true;
    }

    /** @return how many sessions have their kill switch on; {@link #gatewayId} and {@link #session} name each */
    public int count() {
        return count;
    }

    /** @return the gateway of the {@code i}-th session whose kill switch is on */
    public int gatewayId(final int i) {
        return gatewayIds[i];
    }

    /** @return the SenderCompID of the {@code i}-th session whose kill switch is on */
    public long session(final int i) {
        return sessions[i];
    }

    /** @return true if no more sessions can have their kill switch on */
    public boolean isFull() {
        return count == CAPACITY;
    }

    private int indexOf(final int gatewayId, final long session) {
        for (int i = 0; i < count; i++) {
            if (sessions[i] == session && gatewayIds[i] == gatewayId) {
                return i;
            }
        }
        return -1;
    }
}

package io.sluice.engine.risk;

import io.sluice.contracts.FirmLimit;
import io.sluice.contracts.RejectReason;
import io.sluice.contracts.Side;
import io.sluice.contracts.SnapshotFirm;
import io.sluice.contracts.SnapshotFirmPosition;
import io.sluice.engine.config.FirmLimitsConfig;
import io.sluice.engine.config.RiskConfig;
import org.agrona.BitUtil;
import org.agrona.collections.Hashing;

/**
 * The engine's pre-trade risk per firm ({@link RiskConfig}): a table of {@link FirmExposure}, one per firm, allocated
 * at start. Firms of the config take the first slots, in config order, with their own limits; any other firm takes
 * the next free slot, with the defaults, when its first order arrives. A session without a firm is its own firm,
 * named by its CompID (which the gateways keep unique across the deployment). Every change of a firm's state marks it
 * changed, for the counters ({@link #changed}).
 * <p>
 * Deterministic: slots are taken in input order, rates count seconds of journal time (the gateway's command-writing
 * time in the MetaData), never the wall clock; the lookup table below is never iterated.
 */
public final class FirmRisk {
    private final FirmLimitsConfig defaults;
    private final FirmExposure[] slots;
    /**
     * Firm to slot, open addressing: pairs of firm and slot + 1 (0: an empty pair), side by side so that a lookup
     * reads one cache line; at most half full.
     */
    private final long[] byFirm;
    private final int pairMask;
    private final int[] changed;
    private final boolean[] isChanged;
    private int used;
    private int changedCount;

    public FirmRisk(final RiskConfig config, final int instruments) {
        defaults = config.defaults();
        slots = new FirmExposure[config.maxFirms()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new FirmExposure(i, instruments);
        }
        final int pairs = BitUtil.findNextPositivePowerOfTwo(Math.max(2, slots.length * 2));
        byFirm = new long[pairs * 2];
        pairMask = pairs - 1;
        changed = new int[slots.length];
        isChanged = new boolean[slots.length];
        for (final FirmLimitsConfig firm : config.firms()) {
            take(firm.firm(), firm);
        }
    }

    /** @return the firm an order of {@code session} carrying {@code firm} (0 for none) belongs to */
    public static long firmOf(final long firm, final long session) {
        return firm != 0 ? firm : session;
    }

    /**
     * @return the exposure of {@code firm}, taking a free slot with the default limits for a firm not seen before;
     *         null if every slot is taken ({@link RejectReason#FIRM_CAPACITY_REACHED})
     */
    public FirmExposure exposureOf(final long firm) {
        final FirmExposure known = find(firm);
        if (known != null || used == slots.length) {
            return known;
        }
        return take(firm, defaults);
    }

    /** @return the exposure of {@code firm} if the config lists it or an order of it was seen, else null */
    public FirmExposure find(final long firm) {
        final long[] table = byFirm;
        int pair = Hashing.hash(firm, pairMask);
        while (true) {
            final long slotPlusOne = table[2 * pair + 1];
            if (slotPlusOne == 0) {
                return null;
            }
            if (table[2 * pair] == firm) {
                return slots[(int) slotPlusOne - 1];
            }
            pair = (pair + 1) & pairMask;
        }
    }

    /** @return the exposure in {@code slot} ({@link FirmExposure#slot()}) */
    public FirmExposure inSlot(final int slot) {
        return slots[slot];
    }

    /** @return how many slots are taken: slots 0 to this, less one, hold firms */
    public int firms() {
        return used;
    }

    /** @return the second of journal time of a command written at {@code commandWriting} (MetaData ticks) */
    public static long second(final long commandWriting) {
        return commandWriting / FirmExposure.TICKS_PER_SECOND;
    }

    /** @see FirmExposure#checkNew */
    public RejectReason checkNew(final FirmExposure firm, final int instrument, final Side side, final long qty,
                                 final long riskPrice, final long limitPrice, final long reference, final long second) {
        final RejectReason admission = firm.admission();
        return admission != RejectReason.NONE ? admission
                : firm.checkNew(instrument, side, qty, riskPrice, limitPrice, reference, second);
    }

    /** @see FirmExposure#checkReplace */
    public RejectReason checkReplace(final FirmExposure firm, final int instrument, final Side side, final long oldLeaves,
                                     final long oldRiskPrice, final long newQty, final long newLeaves, final long newPrice,
                                     final long reference, final long second) {
        final RejectReason admission = firm.admission();
        return admission != RejectReason.NONE ? admission : firm.checkReplace(instrument, side, oldLeaves, oldRiskPrice,
                newQty, newLeaves, newPrice, reference, second);
    }

    /**
     * Counts a refusal for {@code reason}: only one that names a limit counts toward {@code killOnRejectsPerSecond}, and
     * none while the firm's kill switch is on (those name the kill switch).
     *
     * @return true if it tripped the firm's kill switch: the caller cancels the firm's resting orders
     */
    public boolean onReject(final FirmExposure firm, final RejectReason reason, final long second) {
        if (reason.limit() == null || firm.killSwitch() != FirmKillSwitch.OFF) {
            return false;
        }
        markChanged(firm);
        return firm.onLimitReject(second);
    }

    /**
     * A new order of the firm was accepted and has matched: {@code filled} of it filled at once, {@code leaves} of it
     * rests (0: it is done). One update for its acceptance, its fills and, if it does not rest, its close.
     */
    public void onNewOrder(final FirmExposure firm, final int instrument, final Side side, final long filled,
                           final long leaves, final long riskPrice, final long second) {
        firm.onNewOrder(instrument, side, filled, leaves, riskPrice, second);
        markChanged(firm);
    }

    public void onReplaced(final FirmExposure firm, final int instrument, final Side side, final long oldLeaves,
                           final long oldRiskPrice, final long newLeaves, final long newRiskPrice, final long second) {
        firm.onReplaced(instrument, side, oldLeaves, oldRiskPrice, newLeaves, newRiskPrice, second);
        markChanged(firm);
    }

    /** An open order of the firm in {@code slot} filled {@code qty}; {@code last}: that filled it, it is closed. */
    public void onFill(final int slot, final int instrument, final Side side, final long qty, final long riskPrice,
                       final boolean last) {
        final FirmExposure firm = slots[slot];
        firm.onFill(instrument, side, qty, riskPrice, last);
        markChanged(firm);
    }

    public void onClosed(final int slot, final int instrument, final Side side, final long leaves, final long riskPrice) {
        final FirmExposure firm = slots[slot];
        firm.onClosed(instrument, side, leaves, riskPrice);
        markChanged(firm);
    }

    /** Sets a firm's kill switch (an operator's command, or its limits tripping it). */
    public void killSwitch(final FirmExposure firm, final FirmKillSwitch state) {
        firm.killSwitch(state);
        markChanged(firm);
    }

    /** Sets one of a firm's limits (an operator's command); the caller checked the value. */
    public void limit(final FirmExposure firm, final FirmLimit limit, final long value) {
        firm.limit(limit, value);
        markChanged(firm);
    }

    /**
     * Restoring a snapshot: takes the state of the firm in {@code record}'s slot. Slots are restored in order, as they were
     * taken; a firm the config lists is in its slot already and must be the one the snapshot names there.
     *
     * @throws IllegalStateException if the snapshot's slots do not follow on, or name another firm than the config's
     */
    public void restore(final SnapshotFirm record) {
        final int slot = record.slot();
        final boolean listed = slot < used;
        if (listed ? slots[slot].firm() != record.firm() : slot != used || used == slots.length) {
            throw new IllegalStateException("the snapshot's firm in slot " + slot + " does not follow on from the "
                    + used + " firms restored or listed before it");
        }
        final FirmExposure firm = listed ? slots[slot] : take(record.firm(), defaults);
        firm.restore(record);
        markChanged(firm);
    }

    /**
     * Restoring a snapshot, after the firm's {@link #restore}: its exposure in the {@code instrument}-th instrument.
     *
     * @throws IllegalStateException if the firm's slot was not restored
     */
    public void restorePosition(final int instrument, final SnapshotFirmPosition record) {
        if (record.slot() < 0 || record.slot() >= used) {
            throw new IllegalStateException("the snapshot's position of firm slot " + record.slot() + " comes before the firm");
        }
        slots[record.slot()].restorePosition(instrument, record);
    }

    /** @return how many firms changed since {@link #clearChanged}; {@link #changedSlot} names each */
    public int changedCount() {
        return changedCount;
    }

    public int changedSlot(final int i) {
        return changed[i];
    }

    public void clearChanged() {
        for (int i = 0; i < changedCount; i++) {
            isChanged[changed[i]] = false;
        }
        changedCount = 0;
    }

    private void markChanged(final FirmExposure firm) {
        final int slot = firm.slot();
        if (!isChanged[slot]) {
            isChanged[slot] = true;
            changed[changedCount++] = slot;
        }
    }

    private FirmExposure take(final long firm, final FirmLimitsConfig limits) {
        final FirmExposure exposure = slots[used++];
        exposure.start(firm, limits);
        int pair = Hashing.hash(firm, pairMask);
        while (byFirm[2 * pair + 1] != 0) {
            pair = (pair + 1) & pairMask;
        }
        byFirm[2 * pair] = firm;
        byFirm[2 * pair + 1] = exposure.slot() + 1;
        markChanged(exposure);
        return exposure;
    }
}

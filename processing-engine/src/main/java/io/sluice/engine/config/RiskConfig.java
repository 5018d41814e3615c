package io.sluice.engine.config;

import io.sluice.contracts.FirmLimit;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;
import net.openhft.chronicle.wire.ShortTextLongConverter;

import java.util.ArrayList;
import java.util.List;

import static io.sluice.engine.config.InstrumentConfig.require;

/**
 * The engine YAML's {@code risk} section: pre-trade limits per firm, checked in the engine on every new order and
 * replace. Firms listed get their own limits; any other firm, and a session without a firm (its own firm, named by
 * its CompID), gets the {@code defaults}. Room for {@code maxFirms} firms is allocated at start. Example:
 * <pre>
 * risk: {
 *   maxFirms: 256,
 *   defaults: { maxOpenOrders: 1000, maxOrdersPerSecond: 500 },
 *   firms: [ { firm: ACME, maxOpenOrders: 100, maxOpenNotional: 1000000, priceCollar: 500 } ]
 * }
 * </pre>
 * Without a {@code risk} section no firm limit is checked and no firm state is kept.
 */
public final class RiskConfig extends SelfDescribingMarshallable {
    /** What {@link #checkOf} gives for an engine config without a risk section. */
    public static final long NO_RISK = 0;
    private int maxFirms = 256;
    private FirmLimitsConfig defaults = new FirmLimitsConfig();
    private List<FirmLimitsConfig> firms = new ArrayList<>();

    /** @return how many firms (listed ones included) the engine keeps limits and exposure for */
    public int maxFirms() {
        return maxFirms;
    }

    public RiskConfig maxFirms(final int maxFirms) {
        this.maxFirms = maxFirms;
        return this;
    }

    /** @return the limits of every firm not listed */
    public FirmLimitsConfig defaults() {
        return defaults;
    }

    public RiskConfig defaults(final FirmLimitsConfig defaults) {
        this.defaults = defaults;
        return this;
    }

    /** @return the firms with limits of their own, in config order */
    public List<FirmLimitsConfig> firms() {
        return firms;
    }

    public RiskConfig addFirm(final FirmLimitsConfig firm) {
        firms.add(firm);
        return this;
    }

    /**
     * @return a check of everything in {@code risk} that decides the engine's answers (maxFirms, the defaults, each
     *         listed firm and its limits, in order), which a snapshot records: one taken under another risk section is
     *         not restored; {@link #NO_RISK} for none
     */
    public static long checkOf(final RiskConfig risk) {
        if (risk == null) {
            return NO_RISK;
        }
        long check = mix(1, risk.maxFirms);
        check = mix(check, risk.defaults);
        for (final FirmLimitsConfig firm : risk.firms) {
            check = mix(mix(check, firm.firm()), firm);
        }
        return check == NO_RISK ? 1 : check;
    }

    private static long mix(final long check, final FirmLimitsConfig limits) {
        long mixed = check;
        for (final FirmLimit limit : FirmLimit.values()) {
            mixed = mix(mixed, limits.value(limit));
        }
        return mixed;
    }

    /** One step of a 64-bit FNV-1a style hash over whole longs, with a final avalanche of the running value. */
    private static long mix(final long check, final long value) {
        long mixed = (check ^ value) * 0x100000001b3L;
        mixed ^= mixed >>> 29;
        return mixed * 0xbf58476d1ce4e5b9L;
    }

    /** @throws IllegalArgumentException saying what is wrong */
    void validate() {
        require(maxFirms > 0 && maxFirms <= 1 << 16, "risk.maxFirms must be between 1 and 65536, got " + maxFirms);
        require(defaults != null, "risk.defaults is missing");
        defaults.validate("risk.defaults");
        require(firms.size() <= maxFirms, "risk.firms lists " + firms.size() + " firms, more than risk.maxFirms "
                + maxFirms);
        for (final FirmLimitsConfig firm : firms) {
            require(firm.firm() != 0, "a firm of risk.firms has no name (firm: NAME)");
            firm.validate("risk firm " + ShortTextLongConverter.INSTANCE.asString(firm.firm()));
        }
        require(firms.stream().mapToLong(FirmLimitsConfig::firm).distinct().count() == firms.size(),
                "a firm is listed twice in risk.firms");
    }
}

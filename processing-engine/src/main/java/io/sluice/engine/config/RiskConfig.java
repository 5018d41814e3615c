package io.sluice.engine.config;

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
    /** Why an engine with a risk section neither writes nor restores snapshots, nor restarts from one. */
    public static final String NOT_IN_SNAPSHOTS = "snapshots do not hold firm limits and exposure yet: an engine config"
            + " with a risk section can neither write nor restore one (set restartFromSnapshots: false; a restart"
            + " re-runs every input)";
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

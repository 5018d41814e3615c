package io.sluice.engine;

import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.GatewayToEngine;

/**
 * Everything the engine consumes, as one interface: the gateways' commands ({@link GatewayToEngine}, from each
 * gateway journal) and the operators' ({@link AdminCommands}, from the admin journal, source
 * {@code Journals.ADMIN_SOURCE_ID}). The {@link Engine} implements it, and so does everything that stands between an
 * input journal and the engine (journaling, counting, recovery's reading), so that an admin command takes exactly the
 * path a gateway command takes: one excerpt of reports in the engine journal, recovered and replayed alike.
 */
public interface EngineInput extends GatewayToEngine, AdminCommands {
}

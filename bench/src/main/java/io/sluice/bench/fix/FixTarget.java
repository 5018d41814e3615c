package io.sluice.bench.fix;

import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.SessionIdentity;

/**
 * One FIX acceptor a benchmark measures, e.g. "Sluice TCP" or "QuickFIX/J TCP": where it listens and the
 * session the load client logs on with.
 */
public record FixTarget(String label, FixEndpoint endpoint, SessionIdentity identity) {
}

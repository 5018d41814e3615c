package io.sluice.gateway;

import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.journal.JournalSpace;
import io.sluice.runtime.journal.JournalSpaceKeeper;
import io.sluice.runtime.journal.SpaceLevel;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.agrona.concurrent.NanoClock;

import java.util.List;

/**
 * The disk space behind the gateway's two journal writers, the command journal and its own (session state,
 * deliveries, resend store), each kept reserved ahead by a {@link JournalSpaceKeeper} agent on a background {@link
 * AgentThread} ({@link JournalSpace}).
 * New orders and replaces are taken while both have at least half their reserve ahead; below that they are refused
 * ({@link DiskFullRejects}) while cancels, session messages and reports still go through; with an eighth left and no
 * more to be had the gateway stops. Read on the I/O thread: no system calls, locks or allocation.
 */
final class GatewaySpace implements AutoCloseable {
    private final JournalSpace commands;
    private final JournalSpace records;
    private final ExcerptAppender commandAppender;
    private final ExcerptAppender recordAppender;
    private final AgentThread keeper;

    GatewaySpace(final int gatewayId, final JournalSpace commands, final ExcerptAppender commandAppender,
                 final JournalSpace records, final ExcerptAppender recordAppender, final NanoClock clock) {
        this.commands = commands;
        this.records = records;
        this.commandAppender = commandAppender;
        this.recordAppender = recordAppender;
        keeper = AgentThread.startBackground(
                new JournalSpaceKeeper("gateway " + gatewayId + " journal space keeper", List.of(commands, records),
                        clock));
    }

    /** @return true if a new order or a replace may be written: both journals have ample space reserved ahead */
    boolean takesOrders() {
        return takesOrders(commands.level()) && takesOrders(records.level());
    }

    /** @return true if the gateway must stop writing: a journal has used up its reserve and can have no more */
    boolean exhausted() {
        return commands.level() == SpaceLevel.EXHAUSTED || records.level() == SpaceLevel.EXHAUSTED;
    }

    /** @return what the stop is for want of, naming the journal and the free space (off the hot path) */
    String describeShortage() {
        return commands.level() == SpaceLevel.EXHAUSTED ? commands.describeShortage() : records.describeShortage();
    }

    /** Publishes both writers' positions to the keeper; once per round of the I/O thread. */
    void follow() {
        commands.follow(commandAppender);
        records.follow(recordAppender);
    }

    @Override
    public void close() {
        keeper.close();
    }

    /** PENDING, the keeper catching up with a new cycle file, takes orders: the free space was checked before it. */
    private static boolean takesOrders(final SpaceLevel level) {
        return level == SpaceLevel.AMPLE || level == SpaceLevel.PENDING;
    }
}

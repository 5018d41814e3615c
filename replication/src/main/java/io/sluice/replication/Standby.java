package io.sluice.replication;

import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.process.AwaitPromotion;
import io.sluice.runtime.process.CpuPinning;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.apache.kafka.common.KafkaException;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A standby that takes its deployment over by itself, as an Agrona agent. It runs a {@link Receiver} into its replica
 * root and watches the primary's heartbeats in the lease topic ({@link PrimaryWatch}). When they have been silent for
 * {@link StandbyConfig#failoverAfterMillis()} while Kafka answered, it takes over in the steps of
 * {@code ./sluice promote}, printing each with its time: catch up with the log, fence the primary's shipper and claim
 * the deployment ({@link DeploymentClaim}: Kafka decides between racing standbys), catch up with what the fence made
 * final, stop the receiver, promote the root, ship it as the deployment's primary (its own {@link Shipper}, under a new
 * epoch of the transactional.id), then tell the configured engine and gateways, which it started warm when it started
 * ({@link StandbyProcesses}), to open the journals and serve; it stops them when it stops. A standby
 * that loses the claim, or finds the deployment claimed by another, stays a replica and says why. Started again after
 * it was killed during its takeover, it finishes the takeover if the deployment is still its own, else refuses.
 */
public final class Standby implements Agent {
    static final String ROLE = "standby";
    /** How often the replica is compared with the log while it catches up. */
    static final long CATCH_UP_CHECK_MILLIS = 50;
    /** How often the journals' new excerpts are verified while receiving, and how many at most at a time. */
    static final long VERIFY_MILLIS = 100;
    static final int VERIFY_LIMIT = 10_000;
    private static final Duration KAFKA_WAIT = Duration.ofSeconds(5);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    /** Where the standby is. */
    enum State {
        /** Receiving; the primary ships (or none has yet). */
        WATCHING,
        /** The primary is silent: waiting for the replica to hold everything the log holds. */
        CATCHING_UP,
        /** Caught up: fencing the primary's shipper and claiming the deployment. */
        CLAIMING,
        /** Claimed: catching up with what the fence made final, then promoting the root. */
        PROMOTING,
        /** Promoted: the root is shipped, and the engine and gateways this standby started serve on it. */
        PRIMARY,
        /** Another standby claimed the deployment: receiving what its log holds, never taking over from it. */
        REPLICA_OF_ANOTHER,
        /**
         * Started on a root this standby promoted before it stopped (killed during or after its takeover): shipping and
         * starting on it once the lease topic shows the deployment is still its own.
         */
        PROMOTED_BEFORE
    }

    private final StandbyConfig config;
    private final NanoClock nanoClock;
    private final EpochClock epochClock;
    /** The engine and gateways: awaiting the promotion in every state but {@link State#PRIMARY}, serving in it. */
    private final StandbyProcesses processes = new StandbyProcesses();
    private Receiver receiverAgent;
    private AgentThread receiver;
    /** Ships the promoted root, as the deployment's primary: under a new epoch of its transactional.id. */
    private AgentThread shipper;
    private JournalVerification verification;
    private PrimaryWatch watch;
    private DeploymentClaim deploymentClaim;
    private State state = State.WATCHING;
    private PrimaryWatch.State seen;
    /** The claim of another standby this one last said it follows. */
    private LeaseRecord followed;
    private long stepStartMillis;
    private long nextCheckMillis;
    private long nextVerifyMillis;

    /**
     * @param nanoClock  the process's monotonic clock
     * @param epochClock the process's wall clock
     */
    public Standby(final StandbyConfig config, final NanoClock nanoClock, final EpochClock epochClock) {
        this.config = config;
        this.nanoClock = nanoClock;
        this.epochClock = epochClock;
    }

    @Override
    public void onStart() {
        final RootIdentity.Recorded identity = RootIdentity.read(config.root());
        if (identity != null && identity.role() == RootIdentity.Role.PROMOTED
                && identity.deployment().equals(config.deployment())) {
            state = State.PROMOTED_BEFORE;
        } else {
            receiverAgent = new Receiver(config.receiver(), nanoClock, epochClock);
            receiver = AgentThread.start(receiverAgent, config.idle().newStrategy(), CpuPinning.NONE,
                    AgentThread.Priority.NORMAL);
            verification = new JournalVerification(config.root());
        }
        deploymentClaim = new DeploymentClaim(config.bootstrapServers(), config.deployment(), epochClock);
        watch = new PrimaryWatch(config.bootstrapServers(), config.deployment(), "sluice-standby-" + config.name(),
                nanoClock, epochClock);
        System.out.println(ROLE + ": " + config.name() + " stands by for deployment " + config.deployment()
                + ": receiving into " + config.root().toAbsolutePath() + "; takes over once the primary's heartbeats in "
                + LeaseTopic.of(config.deployment()) + " have been silent for " + config.failoverAfterMillis()
                + " ms while kafka at " + config.bootstrapServers() + " answers");
        System.out.println(ROLE + ": started, awaiting the promotion of the root: " + processes.start(config.start()));
    }

    @Override
    public int doWork() throws InterruptedException {
        final long now = epochClock.time();
        int verified = 0;
        if (state != State.PRIMARY) {
            processes.requireAwaiting();
            processes.tell(told(state));
        }
        if (state != State.PRIMARY && state != State.PROMOTING && state != State.PROMOTED_BEFORE) {
            checkReceiver();
            verified = verifyReceived(now);
        }
        return verified + switch (state) {
            case WATCHING -> watch(now);
            case CATCHING_UP -> catchUp(now);
            case CLAIMING -> claim(now);
            case PROMOTING -> promote(now);
            case PRIMARY -> supervise();
            case REPLICA_OF_ANOTHER -> followAnother(now);
            case PROMOTED_BEFORE -> resumePrimary(now);
        };
    }

    /**
     * @return what the engine and gateways are told in {@code standby}: promoted once the root is; taking over (its
     * gateways listen) from when the primary has been silent for a quarter of
     * {@link StandbyConfig#failoverAfterMillis()}, so that clients that leave the primary early (QuickFIX/J tries its
     * next address a second after the first) are held for the promotion, not refused; else standing by
     */
    private AwaitPromotion.Word told(final State standby) {
        return switch (standby) {
            case PRIMARY -> AwaitPromotion.Word.PROMOTED;
            case CATCHING_UP, CLAIMING, PROMOTING, PROMOTED_BEFORE -> AwaitPromotion.Word.TAKING_OVER;
            case WATCHING -> watch.state() == PrimaryWatch.State.PRIMARY
                    && watch.silentMillis() >= config.failoverAfterMillis() / 4
                    ? AwaitPromotion.Word.TAKING_OVER : AwaitPromotion.Word.STANDING_BY;
            case REPLICA_OF_ANOTHER -> AwaitPromotion.Word.STANDING_BY;
        };
    }

    /**
     * Checks the checksums of what the receiver wrote since the last look, so that a promotion has only the last
     * excerpts left to check. @return the excerpts checked
     */
    private int verifyReceived(final long now) {
        if (now < nextVerifyMillis) {
            return 0;
        }
        final int read = verification.readOn(VERIFY_LIMIT);
        nextVerifyMillis = read < VERIFY_LIMIT ? now + VERIFY_MILLIS : now;
        return read;
    }

    private int watch(final long now) {
        final int work = watch.poll(now);
        report(watch.state());
        if (watch.state() == PrimaryWatch.State.CLAIMED) {
            if (watch.firstClaim().holder().equals(claimHolder())) {
                step(now, "resumption", now, "this standby's claim is the deployment's newest record: promoting");
                state = State.PROMOTING;
            } else {
                state = State.REPLICA_OF_ANOTHER;
            }
        } else if (watch.state() == PrimaryWatch.State.PRIMARY && watch.silentMillis() >= config.failoverAfterMillis()) {
            final LeaseRecord last = watch.lastHeartbeat();
            // Stamped now, not at the round's start: the silence was measured up to Kafka's last answer, which a round
            // that stalled got after its start (a detection stamped early, a catch-up that looked seconds long).
            final long decided = epochClock.time();
            final long silent = watch.silentMillis();
            step(decided - silent, "detection", decided, "the primary has been silent for " + silent
                    + " ms (its last heartbeat: " + last.holder() + ", written " + TIME.format(Instant.ofEpochMilli(
                    last.writtenMillis())) + " UTC by its clock); taking over once the replica holds what the log holds");
            state = State.CATCHING_UP;
        }
        return work;
    }

    private int catchUp(final long now) {
        final int work = watch.poll(now);
        if (watch.state() != PrimaryWatch.State.PRIMARY || watch.silentMillis() < config.failoverAfterMillis()) {
            System.out.println(ROLE + ": the lease topic moved again (" + watch.state() + "): not taking over");
            state = State.WATCHING;
            seen = null;
            return work + 1;
        }
        if (now < nextCheckMillis) {
            return work;
        }
        nextCheckMillis = now + CATCH_UP_CHECK_MILLIS;
        final long end = caughtUpTo();
        if (end >= 0) {
            step(stepStartMillis, "catch-up", epochClock.time(), "the replica holds every excerpt the log holds"
                    + " (every record below offset " + end + " of " + LogTopic.of(config.deployment()) + ")");
            state = State.CLAIMING;
        }
        return work + 1;
    }

    private int claim(final long now) {
        final long offset;
        try {
            offset = deploymentClaim.claim(claimHolder());
        } catch (final KafkaException e) {
            System.out.println(ROLE + ": cannot fence and claim (" + e.getMessage() + "): watching again");
            state = State.WATCHING;
            return 1;
        }
        if (offset >= 0 && watch.readPast(offset, KAFKA_WAIT) && watch.firstClaimOffset() == offset) {
            step(stepStartMillis, "fence", epochClock.time(), "fenced the deployment's shipper (transactional.id "
                    + KafkaClients.transactionalId(config.deployment()) + ") and claimed the deployment at offset " + offset
                    + " of " + LeaseTopic.of(config.deployment()));
            state = State.PROMOTING;
        } else {
            watch.readPast(Math.max(offset, watch.firstClaimOffset()), KAFKA_WAIT);
            final LeaseRecord first = watch.firstClaim();
            System.out.println(ROLE + ": lost the claim: " + (first != null && !first.holder().equals(claimHolder())
                    ? first.holder() + " claimed the deployment first (offset " + watch.firstClaimOffset() + ")"
                    : "another holder of the transactional.id fenced this standby before it committed its claim")
                    + "; this standby stays a replica");
            state = State.REPLICA_OF_ANOTHER;
        }
        return 1;
    }

    private int promote(final long now) throws InterruptedException {
        if (now < nextCheckMillis) {
            return 0;
        }
        nextCheckMillis = now + CATCH_UP_CHECK_MILLIS;
        final StringBuilder parts = new StringBuilder();
        if (receiver != null) {
            final long end = caughtUpTo();
            if (end < 0) {
                return 0;
            }
            final long caughtUpMillis = epochClock.time();
            parts.append("caught up with the log's end after the fence, offset ").append(end).append(", in ")
                    .append(caughtUpMillis - stepStartMillis).append(" ms; ");
            if (!receiver.close(KAFKA_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(ROLE + ": the receiver did not stop in " + KAFKA_WAIT.toMillis()
                        + " ms: not promoting a root it may still write");
            }
            receiver = null;
            parts.append("receiver stopped in ").append(epochClock.time() - caughtUpMillis).append(" ms; ");
        }
        final long promoteStartMillis = epochClock.time();
        final int exit = PromoteMain.promote(config.root(), config.bootstrapServers(), PromoteMain.Fence.DONE,
                verification, nanoClock);
        if (exit != 0) {
            throw new ReplicationRefusedException(ROLE + ": refused: promote exited " + exit + " (above): the root stays"
                    + " as it is");
        }
        verification.close();
        parts.append("last excerpts verified and root promoted in ").append(epochClock.time()
                - promoteStartMillis).append(" ms");
        step(stepStartMillis, "promotion", epochClock.time(), "the root is the deployment's primary (" + parts
                + ")");
        startPrimary();
        return 1;
    }

    /**
     * On a root this standby promoted before it stopped: ships it and starts the processes once the lease topic's newest
     * record is this standby's claim or its shipper's heartbeat; anything else (another's claim, another primary shipping
     * since) refuses, as the root can be no replica again.
     */
    private int resumePrimary(final long now) {
        final int work = watch.poll(now);
        if (!watch.readToEnd()) {
            return work;
        }
        final String newest = switch (watch.state()) {
            case CLAIMED -> watch.firstClaim().holder();
            case PRIMARY -> watch.lastHeartbeat().holder();
            case NO_PRIMARY_YET -> "no one";
        };
        if (!newest.equals(claimHolder()) && !newest.equals(shipperHolder())) {
            throw new ReplicationRefusedException(ROLE + ": refused: " + config.root().toAbsolutePath() + " is promoted"
                    + " (deployment " + config.deployment() + ") but the newest record of "
                    + LeaseTopic.of(config.deployment()) + " is " + watch.state() + " of " + newest + ", not of this"
                    + " standby: the root can be no replica again. Stand by with a new root, re-seeded from Kafka.");
        }
        step(now, "resumption", now, "this standby promoted the root before it stopped, and the deployment's newest"
                + " record is its own (" + newest + "): shipping and starting");
        startPrimary();
        return work + 1;
    }

    /**
     * Ships the promoted root and tells the engine and gateways, started when the standby started, to serve on it: the
     * deployment's primary from now on.
     */
    private void startPrimary() {
        // The processes first: they open the journals and serve while the shipper starts (it resumes from the log, so
        // what they write meanwhile is shipped all the same).
        processes.tell(told(State.PRIMARY));
        shipper = Shipper.start(config.shipper(shipperHolder()), nanoClock, epochClock);
        System.out.println(ROLE + ": shipping the promoted root as deployment " + config.deployment() + "'s primary"
                + " (transactional.id " + KafkaClients.transactionalId(config.deployment()) + ", a new epoch): a standby"
                + " of this deployment follows it, and takes over when it falls silent");
        // The last line of a takeover: whoever waits for it finds every line before it.
        step(stepStartMillis, "start", epochClock.time(), "told the processes started with the standby that"
                + " the root is promoted: they open its journals and serve");
        state = State.PRIMARY;
    }

    /** A shipper that stopped (fenced by a newer primary) stops the standby, and so the processes it started. */
    private int supervise() throws InterruptedException {
        if (shipper.awaitClosed(0, TimeUnit.MILLISECONDS)) {
            final Throwable failure = shipper.failure();
            shipper = null;
            System.out.println(ROLE + ": the shipper of the promoted root stopped (" + failure + "): stopping the"
                    + " processes this standby started");
            if (failure instanceof RuntimeException e) {
                throw e;
            }
            throw new IllegalStateException(ROLE + ": the shipper stopped", failure);
        }
        processes.reportExits();
        return 0;
    }

    private int followAnother(final long now) {
        final int work = watch.poll(now);
        final LeaseRecord claim = watch.firstClaim();
        if (claim != null && claim != followed) {
            followed = claim;
            System.out.println(ROLE + ": the deployment was taken over by " + claim.holder() + " (offset "
                    + watch.firstClaimOffset() + " of " + LeaseTopic.of(config.deployment()) + "): this standby stays a"
                    + " replica and does not take over from it");
        }
        if (watch.state() == PrimaryWatch.State.PRIMARY) {
            System.out.println(ROLE + ": a primary ships again (" + watch.lastHeartbeat().holder() + "): watching it");
            state = State.WATCHING;
            seen = null;
            followed = null;
        }
        return work;
    }

    /**
     * @return the log's end if the receiver has written every record below it (the replica holds every excerpt the log
     * holds), else -1 (also while Kafka does not answer)
     */
    private long caughtUpTo() {
        try {
            final long end = watch.logEnd();
            return receiverAgent.writtenBelow() >= end ? end : -1;
        } catch (final KafkaException e) {
            return -1;
        }
    }

    /** Makes the claim's producer while the primary is alive; one that cannot is made again by the claim. */
    private void prepareClaim() {
        try {
            deploymentClaim.prepare();
        } catch (final KafkaException e) {
            deploymentClaim.close();
        }
    }

    /** A receiver that stopped (a refusal, a full disk) stops the standby with the same cause. */
    private void checkReceiver() throws InterruptedException {
        if (receiver != null && receiver.awaitClosed(0, TimeUnit.MILLISECONDS)) {
            final Throwable failure = receiver.failure();
            receiver = null;
            if (failure instanceof RuntimeException e) {
                throw e;
            }
            throw new IllegalStateException(ROLE + ": the receiver stopped", failure);
        }
    }

    private void report(final PrimaryWatch.State now) {
        if (now == seen) {
            return;
        }
        seen = now;
        switch (now) {
            case NO_PRIMARY_YET -> System.out.println(ROLE + ": no primary has shipped yet (no heartbeat in "
                    + LeaseTopic.of(config.deployment()) + "): standing by");
            case PRIMARY -> {
                System.out.println(ROLE + ": the primary is alive (" + watch.lastHeartbeat().holder() + ")");
                prepareClaim();
            }
            case CLAIMED -> {
                // said by the state it leads to
            }
        }
    }

    /** Prints one step of the takeover: when it ended, how long it took, and what it did; the next step starts now. */
    private void step(final long startMillis, final String name, final long endMillis, final String what) {
        System.out.println(ROLE + ": [" + TIME.format(Instant.ofEpochMilli(endMillis)) + " UTC] " + name + " took "
                + (endMillis - startMillis) + " ms: " + what);
        stepStartMillis = endMillis;
    }

    private String claimHolder() {
        return "standby " + config.name() + " on " + ShipperHeartbeat.hostName();
    }

    /** @return who the heartbeats of this standby's shipper name, the same after a restart */
    private String shipperHolder() {
        return "the shipper of " + claimHolder();
    }

    @Override
    public void onClose() {
        processes.close();
        if (receiver != null) {
            receiver.close(KAFKA_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
        if (shipper != null) {
            shipper.close(KAFKA_WAIT.toMillis(), TimeUnit.MILLISECONDS); // after the processes: it ships their last
        }
        if (watch != null) {
            watch.close();
        }
        if (verification != null) {
            verification.close();
        }
        if (deploymentClaim != null) {
            deploymentClaim.close();
        }
    }

    @Override
    public String roleName() {
        return ROLE;
    }
}

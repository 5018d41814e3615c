package io.sluice.bench.burst;

import com.sun.management.OperatingSystemMXBean;
import io.sluice.bench.IdleOption;
import io.sluice.bench.engine.PreWrittenJournals;
import io.sluice.bench.report.BenchResult;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.tools.report.LatencyTable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice bench burst [--messages N] [--baseline N]}: a burst larger than memory. Chronicle's 2013
 * demo pushed 200 M messages through gateway → engine → gateway at 1.1 M/s while its journals outgrew main
 * memory; this runs the same shape, the journal round trip of two gateway threads and an engine, for
 * {@code --messages} (200 M) messages, printing every interval the rate, the round-trip percentiles and the
 * journals' size against the machine's memory, so a reader sees what happens once they no longer fit in the
 * page cache. A {@code --baseline} burst (20 M, which fits) runs first in the same session for comparison.
 * <p>
 * Before either, a short probe measures the journal bytes per message; if the bursts would not fit on the
 * disk with a reserve left free, they are cut to what fits and the output says so. All journals live in one
 * temporary directory, deleted after each burst and on exit, Ctrl-C included.
 */
@Command(name = "./sluice bench burst", mixinStandardHelpOptions = true, sortOptions = false,
        description = "A sustained burst through the journal round trip as the journals outgrow the page cache.")
public final class BurstBench implements Callable<Integer> {
    private static final double GB = 1e9;

    @Option(names = "--messages", description = "messages in the big burst, both gateways together (default ${DEFAULT-VALUE})")
    private long messages = 200_000_000;

    @Option(names = "--baseline", description = "messages in the comparison burst run first; 0 for none (default ${DEFAULT-VALUE})")
    private long baseline = 20_000_000;

    @Option(names = "--probe", description = "messages of the probe that measures bytes per message (default ${DEFAULT-VALUE})")
    private long probe = 1_000_000;

    @Option(names = "--interval", description = "seconds per printed interval (default ${DEFAULT-VALUE})")
    private int intervalSeconds = 5;

    @Option(names = "--window", description = "most unanswered commands per gateway (default ${DEFAULT-VALUE})")
    private int window = 64;

    @Option(names = "--engine-idle", converter = IdleOption.class,
            description = "engine idle strategy, an Agrona alias: spin, yield, backoff, ... (default ${DEFAULT-VALUE})")
    private IdleConfig engineIdle = IdleConfig.of("backoff");

    @Option(names = "--dir", description = "where to create the temporary journal directory (default: the system temp dir)")
    private Path parent = Path.of(System.getProperty("java.io.tmpdir"));

    @Option(names = "--reserve-gb", description = "disk space to leave free, GB (default ${DEFAULT-VALUE})")
    private double reserveGb = 10;

    public static void main(final String[] args) {
        System.exit(new CommandLine(new BurstBench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final int gateways = PreWrittenJournals.GATEWAYS.length;
        final long ram = ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
        final long reserve = (long) (reserveGb * GB);
        final Burst.Settings settings = new Burst.Settings(window, engineIdle, Duration.ofSeconds(intervalSeconds), ram,
                reserve / 2);
        try (ScratchDirectory scratch = ScratchDirectory.under(parent, "sluice-burst-")) {
            System.out.printf(Locale.ROOT, "journals under %s (deleted afterwards); memory %.1f GB; disk usable %.1f GB,"
                    + " %.1f GB kept free%n", scratch.path(), ram / GB, Burst.usableSpace(scratch.path()) / GB, reserve / GB);

            final long probeMessages = even(Math.min(probe, messages), gateways);
            final Path probeRoot = scratch.newSubdirectory("probe");
            final Burst.Figures probed = Burst.run(probeRoot, probeMessages, settings, null);
            final double bytesPerMessage = (double) JournalFootprint.excerptBytes(probeRoot, PreWrittenJournals.GATEWAYS)
                    / probeMessages;
            scratch.delete(probeRoot);
            final DiskPlan plan = new DiskPlan(Burst.usableSpace(scratch.path()), reserve, bytesPerMessage);
            System.out.printf(Locale.ROOT, "probe: %,d messages at %.2f M msg/s; %.0f journal bytes per message"
                    + " (command and reports, all journals)%n", probeMessages, probed.rate() / 1e6, bytesPerMessage);

            final long fit = plan.messagesThatFit(gateways);
            final long burstMessages = Math.min(even(messages, gateways), fit);
            final long baselineMessages = Math.min(even(baseline, gateways), fit);
            if (burstMessages < messages) {
                System.out.printf(Locale.ROOT, "limited by disk: %,d messages, %.1f GB (of %,d asked; %.1f GB usable,"
                        + " %.1f GB kept free, %.0f bytes per message + %.0f %%)%n", burstMessages,
                        plan.bytesFor(burstMessages) / GB, messages, plan.usableBytes() / GB, reserve / GB,
                        bytesPerMessage, (DiskPlan.HEADROOM - 1) * 100);
            }
            System.out.printf(Locale.ROOT, "plan: baseline %,d messages (~%.1f GB), then burst %,d messages (~%.1f GB,"
                    + " %.0f %% of memory); at the probe's rate the burst takes ~%s%n", baselineMessages,
                    plan.bytesFor(baselineMessages) / GB, burstMessages, plan.bytesFor(burstMessages) / GB,
                    100 * plan.bytesFor(burstMessages) / ram, duration(burstMessages / probed.rate()));

            final BenchResult result = BenchResult.of("burst").put("window", window).put("engineIdle", engineIdle.describe())
                    .put("ramBytes", ram).put("bytesPerMessage", bytesPerMessage).put("messagesAsked", messages)
                    .put("limitedByDisk", burstMessages < messages);
            Burst.Figures base = null;
            if (baselineMessages > 0) {
                System.out.printf(Locale.ROOT, "%nbaseline burst: %,d messages%n", baselineMessages);
                base = runBurst(scratch, "baseline", baselineMessages, settings);
                result.put("baseline", toResult(base));
                System.out.printf(Locale.ROOT, "at the baseline's rate the burst of %,d takes ~%s%n", burstMessages,
                        duration(burstMessages / base.rate()));
            }
            System.out.printf(Locale.ROOT, "%nburst: %,d messages%n", burstMessages);
            final Burst.Figures burst = runBurst(scratch, "burst", burstMessages, settings);
            result.put("burst", toResult(burst));

            System.out.println();
            final LatencyTable table = LatencyTable.withRate(System.out, 34);
            table.header();
            if (base != null) {
                table.rowNanos(String.format(Locale.ROOT, "baseline %,d", base.messages()), base.latency(null), base.seconds());
            }
            table.rowNanos(String.format(Locale.ROOT, "burst %,d", burst.messages()), burst.latency(null), burst.seconds());
            if (burst.seconds(true) > 0) {
                table.rowNanos("  while journals < memory", burst.latency(false), burst.seconds(false));
                table.rowNanos("  once journals > memory", burst.latency(true), burst.seconds(true));
            } else {
                System.out.println("(the journals never outgrew memory)");
            }
            if (base != null) {
                System.out.printf(Locale.ROOT, "burst / baseline: rate %.2f, p99 %.2f, p99.9 %.2f%n",
                        burst.rate() / base.rate(), ratio(burst, base, 99), ratio(burst, base, 99.9));
            }
            System.out.println("wrote " + result.write(BenchResult.resultsDir()));
            return 0;
        }
    }

    private static Burst.Figures runBurst(final ScratchDirectory scratch, final String name, final long count,
                                          final Burst.Settings settings) throws InterruptedException {
        final Path root = scratch.newSubdirectory(name);
        try {
            final Burst.Figures figures = Burst.run(root, count, settings, System.out);
            System.out.printf(Locale.ROOT, "%s: %,d messages in %.1f s = %.3f M msg/s%n", name, figures.messages(),
                    figures.seconds(), figures.rate() / 1e6);
            return figures;
        } finally {
            scratch.delete(root);
        }
    }

    private static BenchResult toResult(final Burst.Figures figures) {
        final BenchResult result = BenchResult.section().put("messages", figures.messages())
                .put("seconds", figures.seconds()).put("messagesPerSecond", figures.rate())
                .putLatencyNanos("roundTrip", figures.latency(null))
                .put("secondsOnceJournalsExceedMemory", figures.seconds(true));
        if (figures.seconds(true) > 0) {
            result.putLatencyNanos("roundTripWhileJournalsFitMemory", figures.latency(false))
                    .putLatencyNanos("roundTripOnceJournalsExceedMemory", figures.latency(true));
        }
        return result.put("intervals", figures.intervals().stream().map(BurstInterval::toResult).toList());
    }

    private static double ratio(final Burst.Figures burst, final Burst.Figures base, final double percentile) {
        return (double) burst.latency(null).getValueAtPercentile(percentile) / base.latency(null).getValueAtPercentile(percentile);
    }

    private static long even(final long count, final int gateways) {
        return count - count % gateways;
    }

    private static String duration(final double seconds) {
        final long whole = Math.round(seconds);
        return whole < 120 ? whole + " s" : String.format(Locale.ROOT, "%d min %02d s", whole / 60, whole % 60);
    }
}

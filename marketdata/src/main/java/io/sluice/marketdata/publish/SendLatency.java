package io.sluice.marketdata.publish;

/**
 * Where the publisher reports order-to-tick. For each message it sends, the engine's reportWriting of the report behind
 * it and when its packet went to the kernel, both in 0.1 µs ticks. A benchmark records them; the process
 * itself records nothing ({@link #NONE}).
 */
@FunctionalInterface
public interface SendLatency {
    /** Records nothing. */
    SendLatency NONE = (reportWriting, sent) -> {
    };

    void onSent(long reportWritingTicks, long sentTicks);
}

package io.sluice.replay;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

import java.io.PrintStream;

/**
 * A replay's progress as a bar with rate and ETA (me.tongfei progressbar), drawn on stderr so stdout keeps
 * only the verdict. Only for a terminal: {@link ReplayMain} uses {@link ReplayProgress#NONE} otherwise.
 */
final class TerminalProgress implements ReplayProgress {
    private final PrintStream out;
    private ProgressBar bar;

    TerminalProgress(final PrintStream out) {
        this.out = out;
    }

    @Override
    public void start(final long expectedInputs) {
        bar = new ProgressBarBuilder()
                .setTaskName("replay")
                .setInitialMax(expectedInputs)
                .setConsumer(new ConsoleProgressBarConsumer(out))
                .setUnit(" inputs", 1)
                .showSpeed()
                .setUpdateIntervalMillis(500)
                .build();
    }

    @Override
    public void update(final long inputs) {
        bar.stepTo(inputs);
    }

    @Override
    public void finish(final long inputs) {
        bar.stepTo(inputs);
        bar.close();
    }
}

package io.sluice.runtime.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * How an engine or gateway started by a standby ahead of its takeover waits for the word that its root is promoted.
 * <p>
 * A standby ({@code ./sluice standby}) starts its processes when it starts, each with {@value #OPTION}: the JVM starts,
 * the config is read and checked, and the process waits on its standard input ({@link #await}) without touching the
 * replica root that the standby's receiver fills. The standby writes a {@link Word}, one a line, whenever what it tells
 * them changes; only after {@link Word#PROMOTED} does a process open its journals, recover and serve. The standard input
 * closing first (the standby is gone) ends the wait too: the process exits, the root untouched.
 */
public final class AwaitPromotion {
    /** The option that makes an engine or gateway wait for the standby's word before it opens its journals. */
    public static final String OPTION = "--await-promotion";

    /** What a standby tells its processes: where its takeover stands. */
    public enum Word {
        /** A primary ships (or none has yet): wait, and take no client. */
        STANDING_BY,
        /**
         * The primary has been silent for a quarter of the standby's failover time, or the standby is taking over: a gateway
         * listens, and its clients' connections wait in the backlog, unanswered, until the root is promoted.
         */
        TAKING_OVER,
        /** The root is promoted: open the journals, recover, serve. */
        PROMOTED
    }

    /** How a wait ended. */
    public enum Outcome {
        /** The standby promoted the root. */
        PROMOTED,
        /** The standby's pipe closed before it promoted the root: it is gone, and the process exits. */
        STANDBY_GONE
    }

    private AwaitPromotion() {
    }

    /**
     * Waits for {@link Word#PROMOTED} on {@code words}, the process's standard input, handing every word read (that one
     * included) to {@code onWord} as it comes.
     *
     * @return {@link Outcome#PROMOTED}, or {@link Outcome#STANDBY_GONE} if the input ended (or broke) first
     * @throws IllegalArgumentException on a line that is no word: the process was started by something that is no
     *                                  standby
     */
    public static Outcome await(final InputStream words, final Consumer<Word> onWord) {
        final BufferedReader reader = new BufferedReader(new InputStreamReader(words, StandardCharsets.US_ASCII));
        while (true) {
            final String line;
            try {
                line = reader.readLine();
            } catch (final IOException broken) {
                return Outcome.STANDBY_GONE;
            }
            if (line == null) {
                return Outcome.STANDBY_GONE;
            }
            final Word word = parse(line);
            onWord.accept(word);
            if (word == Word.PROMOTED) {
                return Outcome.PROMOTED;
            }
        }
    }

    private static Word parse(final String line) {
        for (final Word word : Word.values()) {
            if (word.name().equals(line)) {
                return word;
            }
        }
        throw new IllegalArgumentException("with " + OPTION + " the standard input carries the standby's words, one of "
                + Arrays.toString(Word.values()) + " a line; got '" + line + "'");
    }

    /** The standby's side: tells a process waiting on {@code words} (its standard input) {@code word}. */
    public static void tell(final OutputStream words, final Word word) throws IOException {
        words.write((word.name() + "\n").getBytes(StandardCharsets.US_ASCII));
        words.flush();
    }
}

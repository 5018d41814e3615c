package io.sluice.engine.recovery;

/**
 * The engine failed while processing one input: an exception escaped the engine's logic part way through a command.
 * Its excerpt of reports was rolled back, but the engine's books and counters may be half changed, so the engine
 * does not skip the input and go on: it stops ({@code EngineMain.EXIT_INPUT_FAILED}). A restart re-runs the same
 * input and stops with the same message, which names the gateway journal, its cycle file, the excerpt index and byte
 * offset of the input, the input itself as YAML and the failure: what a developer needs to reproduce and fix it, and
 * what tells a supervisor not to restart blindly. A replay of the gateway journals reproduces it too.
 */
public final class InputFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InputFailedException(final String place, final Object input, final RuntimeException failure) {
        super("processing failed on the input at " + place + ": " + failure
                + "\nThe engine's state may be half changed, so it does not skip the input: it stopped, and stops again"
                + " on the same input after a restart until the engine is fixed. The input:\n" + input, failure);
    }
}

package io.sluice.bench;

import picocli.CommandLine;

/**
 * Reads the options of a bench whose {@code main} runs the measurement itself, with picocli. {@code --help} and
 * {@code --version} print and exit 0; a bad option prints the error and the usage and exits 2, as every bench that is
 * a picocli command does.
 */
public final class BenchArguments {
    private BenchArguments() {
    }

    /**
     * @param options a picocli {@code @Command} with {@code mixinStandardHelpOptions} and its {@code @Option} fields
     * @return {@code options}, filled in from {@code args}; does not return after help, version or a bad option
     */
    public static <T> T parse(final T options, final String[] args) throws Exception {
        final CommandLine commandLine = new CommandLine(options);
        try {
            final Integer helped = CommandLine.executeHelpRequest(commandLine.parseArgs(args));
            if (helped != null) {
                System.exit(helped);
            }
        } catch (final CommandLine.ParameterException e) {
            System.exit(commandLine.getParameterExceptionHandler().handleParseException(e, args));
        }
        return options;
    }
}

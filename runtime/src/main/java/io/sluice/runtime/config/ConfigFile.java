package io.sluice.runtime.config;

import net.openhft.chronicle.core.pool.ClassAliasPool;
import net.openhft.chronicle.wire.WireType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads one role's YAML config the same way for every role: short tags, errors that name the file.
 * <p>
 * A config file opens with its type's simple name as its tag ({@code !EngineConfig}, {@code !GatewayConfig}, ...);
 * a type nested in it is tagged by the name its config class gives it with {@link #alias}. The old spelling, a Java
 * class name ({@code !io.sluice.engine.config.EngineConfig}), is still read
 * and draws one warning naming the short tag, so class names are not part of the file format.
 */
public final class ConfigFile {
    private static final Pattern CLASS_NAME_TAG = Pattern.compile("!((?:[a-z][a-z0-9_]*\\.)+)([A-Z][\\w$]*)");

    private ConfigFile() {
    }

    /** Makes {@code tag} (written {@code !tag}) the name of {@code type} in every config file. */
    public static void alias(final Class<?> type, final String tag) {
        ClassAliasPool.CLASS_ALIASES.addAlias(type, tag);
    }

    /**
     * Reads, parses and validates {@code file}.
     *
     * @param what     what the file configures, for messages ("engine config")
     * @param validate throws IllegalArgumentException saying what is wrong
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static <T> T load(final Path file, final Class<T> type, final String what, final Consumer<T> validate) {
        final String text;
        try {
            text = Files.readString(file);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read " + what + " " + file.toAbsolutePath(), e);
        }
        return parse(text, file.toAbsolutePath().toString(), type, what, validate);
    }

    /** As {@link #load}, from text; {@code origin} names where the text came from. */
    public static <T> T parse(final String yaml, final String origin, final Class<T> type, final String what,
                              final Consumer<T> validate) {
        if (yaml.isBlank()) {
            throw new IllegalArgumentException(what + " " + origin + " is empty");
        }
        alias(type, type.getSimpleName());
        warnOfClassNameTags(yaml, origin, what);
        final T config;
        try {
            config = WireType.YAML_ONLY.fromString(type, yaml);
        } catch (final RuntimeException e) {
            throw new IllegalArgumentException(what + " " + origin + " is not valid YAML for " + type.getSimpleName()
                    + ": " + e.getMessage(), e);
        }
        if (config == null) {
            throw new IllegalArgumentException(what + " " + origin + " is empty");
        }
        try {
            validate.accept(config);
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " " + origin + ": " + e.getMessage(), e);
        }
        return config;
    }

    private static void warnOfClassNameTags(final String yaml, final String origin, final String what) {
        final Matcher tag = CLASS_NAME_TAG.matcher(yaml);
        while (tag.find()) {
            final String className = tag.group(1) + tag.group(2);
            final String shortTag;
            try {
                shortTag = ClassAliasPool.CLASS_ALIASES.nameFor(ClassAliasPool.CLASS_ALIASES.forName(className));
            } catch (final RuntimeException unknownClass) {
                continue; // parsing names it
            }
            if (!shortTag.equals(className)) {
                System.err.println("warning: " + what + " " + origin + " tags a type by its Java class name, !" + className
                        + ": write !" + shortTag + " (the class name is still read)");
            }
        }
    }
}

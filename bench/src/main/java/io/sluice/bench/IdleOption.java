package io.sluice.bench;

import io.sluice.runtime.agent.IdleConfig;
import picocli.CommandLine;

/** Reads a benchmark's idle-strategy option ({@code --engine-idle spin}): Agrona's aliases, as in every config. */
public final class IdleOption implements CommandLine.ITypeConverter<IdleConfig> {
    @Override
    public IdleConfig convert(final String value) {
        return IdleConfig.of(value);
    }
}

package io.sluice.tools.dump;

import io.sluice.contracts.journal.JournalReader;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;

import java.io.PrintStream;

/**
 * Prints a journal of method calls as YAML, as Chronicle's own reader does, for {@code ./sluice dump}.
 * Each excerpt's calls are read with the interface the journal was written with and written back through a method
 * writer of that interface on a YAML wire; every record's checksum is checked on the way ({@link JournalReader}).
 */
final class MethodCallDump implements DumpLoop.ExcerptPrinter {
    private final ExcerptTailer tailer;
    private final Wire yaml = WireType.YAML_ONLY.apply(Bytes.allocateElasticOnHeap(1024));
    private final JournalReader reader;

    private MethodCallDump(final ChronicleQueue journal, final ExcerptTailer tailer, final Class<?> type) {
        this.tailer = tailer;
        reader = new JournalReader(journal, tailer, yaml.methodWriter(type));
    }

    /** @return the factory of printers for journals written with {@code type} */
    static DumpLoop.PrinterFactory of(final Class<?> type) {
        return (journal, tailer) -> new MethodCallDump(journal, tailer, type);
    }

    @Override
    public DumpLoop.Read printOne(final boolean toEnd, final boolean showIndex, final PrintStream out) {
        if (!(toEnd ? reader.readOneToEnd() : reader.readOne())) {
            return DumpLoop.Read.NONE;
        }
        if (yaml.bytes().readRemaining() == 0) {
            return DumpLoop.Read.SILENT;
        }
        if (showIndex) {
            out.println("# index 0x" + Long.toHexString(tailer.lastReadIndex()));
        }
        out.print(yaml.bytes());
        yaml.clear();
        return DumpLoop.Read.PRINTED;
    }

    @Override
    public void close() {
        reader.close();
    }
}

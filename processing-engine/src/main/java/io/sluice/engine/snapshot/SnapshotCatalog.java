package io.sluice.engine.snapshot;

import io.sluice.contracts.EngineSnapshots;
import io.sluice.contracts.RecordLayout;
import io.sluice.contracts.SnapshotBegin;
import io.sluice.contracts.SnapshotEnd;
import io.sluice.contracts.SnapshotInstrument;
import io.sluice.contracts.SnapshotOrder;
import io.sluice.contracts.SnapshotSource;
import io.sluice.contracts.TradingHalt;
import io.sluice.contracts.TradingSession;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

import java.util.ArrayList;
import java.util.List;

/**
 * The snapshots a snapshot journal holds, oldest first, found by one pass over it: each excerpt's first method id is
 * peeked, and only begin and end excerpts are decoded (order excerpts, nearly all of a snapshot, are passed over).
 * A snapshot whose end never came (its writer was killed) is listed as torn, with what was found of it; so is one
 * whose begin record cannot be read. Start-up code: it allocates freely.
 */
final class SnapshotCatalog {
    /** A source position as a snapshot records it. */
    record Source(int gatewayId, long eventId, long journalIndex) {
    }

    /** An instrument as a snapshot records it. */
    record Instrument(long symbol, long tickSize, long lotSize, long priceLow, long priceHigh, long maxOrderQty,
                      long maxNotional) {
    }

    /** An instrument's trading state as a snapshot records it. */
    record TradingState(long symbol, TradingSession session, TradingHalt halt) {
    }

    /** One snapshot: where its begin excerpt is, what it says, and its end (null: torn) or why it is unusable. */
    static final class Entry {
        final long beginIndex;
        SnapshotBegin begin;
        final List<Source> sources = new ArrayList<>();
        final List<Instrument> instruments = new ArrayList<>();
        final List<TradingState> tradingStates = new ArrayList<>();
        SnapshotEnd end;
        long endIndex = -1;
        String unreadable;

        Entry(final long beginIndex) {
            this.beginIndex = beginIndex;
        }
    }

    private SnapshotCatalog() {
    }

    /** @return the snapshots of {@code journal}, oldest first */
    static List<Entry> read(final ChronicleQueue journal) {
        final List<Entry> entries = new ArrayList<>();
        final Entry[] current = new Entry[1];
        try (ExcerptTailer peek = journal.createTailer(); ExcerptTailer decode = journal.createTailer()) {
            final MethodReader reader = decode.methodReader(new EngineSnapshots() {
                @Override
                public void snapshotBegin(final SnapshotBegin begin) {
                    current[0].begin = begin.deepCopy();
                }

                @Override
                public void snapshotSource(final SnapshotSource s) {
                    current[0].sources.add(new Source(s.gatewayId(), s.eventId(), s.journalIndex()));
                }

                @Override
                public void snapshotInstrument(final SnapshotInstrument i) {
                    current[0].instruments.add(new Instrument(i.symbol(), i.tickSize(), i.lotSize(), i.priceLow(),
                            i.priceHigh(), i.maxOrderQty(), i.maxNotional()));
                    current[0].tradingStates.add(new TradingState(i.symbol(), i.session(), i.halt()));
                }

                @Override
                public void snapshotOrder(final SnapshotOrder order) {
                }

                @Override
                public void snapshotEnd(final SnapshotEnd end) {
                    final Entry entry = current[0];
                    if (entry != null && entry.end == null && end.beginIndex() == entry.beginIndex) {
                        entry.end = end.deepCopy();
                        entry.endIndex = decode.lastReadIndex();
                    }
                }
            });
            while (true) {
                final long index;
                final long event;
                try (DocumentContext dc = peek.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    if (dc.isMetaData()) {
                        continue;
                    }
                    index = dc.index();
                    event = dc.wire().readEventNumber();
                }
                if (event == RecordLayout.SNAPSHOT_BEGIN) {
                    final Entry entry = new Entry(index);
                    entries.add(entry);
                    current[0] = entry;
                    decodeAt(decode, reader, entry, index);
                } else if (event == RecordLayout.SNAPSHOT_END && current[0] != null) {
                    decodeAt(decode, reader, current[0], index);
                }
            }
        }
        return entries;
    }

    private static void decodeAt(final ExcerptTailer decode, final MethodReader reader, final Entry entry, final long index) {
        try {
            if (!decode.moveToIndex(index) || !reader.readOne()) {
                entry.unreadable = "its excerpt at index 0x" + Long.toHexString(index) + " cannot be read";
            }
        } catch (final RuntimeException e) {
            entry.unreadable = "its excerpt at index 0x" + Long.toHexString(index) + " is damaged: " + e.getMessage();
        }
    }
}

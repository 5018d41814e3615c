package io.sluice.engine.book;

/**
 * One side of a book: its price levels in price priority. Levels are kept in a sorted array with the best
 * price at the end, so the level matched most often is removed by a decrement and new levels near the
 * touch shift few entries. Level objects come from a pre-sized spare stack: no allocation after start.
 */
public final class BookSide {
    private final boolean bids;
    private final long[] ranks;
    private final PriceLevel[] levels;
    private final PriceLevel[] spare;
    private int spareCount;
    private int count;
    private int orders;

    /** @param bids true for the buy side (best = highest price), false for the sell side (best = lowest) */
    public BookSide(final boolean bids, final int capacity) {
        this.bids = bids;
        ranks = new long[capacity];
        levels = new PriceLevel[capacity];
        spare = new PriceLevel[capacity];
        for (int i = 0; i < capacity; i++) {
            spare[i] = new PriceLevel();
        }
        spareCount = capacity;
    }

    /** @return the level with the best price, or null if the side is empty. */
    public PriceLevel best() {
        return count == 0 ? null : levels[count - 1];
    }

    /** @return the level {@code depth} places behind the best (0 = best), or null past the last. */
    public PriceLevel level(final int depth) {
        return depth < count ? levels[count - 1 - depth] : null;
    }

    /** @return true if an order at {@code price} can rest: its level exists or there is room for one more. */
    public boolean canRest(final long price) {
        return count < levels.length || find(rank(price)) >= 0;
    }

    /** Appends {@code order} at the back of its price's level, creating the level if needed. */
    public void rest(final Order order) {
        final long rank = rank(order.price());
        int index = find(rank);
        if (index < 0) {
            index = -index - 1;
            System.arraycopy(ranks, index, ranks, index + 1, count - index);
            System.arraycopy(levels, index, levels, index + 1, count - index);
            final PriceLevel level = spare[--spareCount];
            level.reset(order.price());
            ranks[index] = rank;
            levels[index] = level;
            count++;
        }
        levels[index].add(order);
        orders++;
    }

    /** @return how many orders rest on this side. */
    public int orders() {
        return orders;
    }

    /** Takes a resting {@code order} out of the side, dropping its level if it empties. */
    public void remove(final Order order) {
        final PriceLevel level = order.level;
        level.remove(order);
        orders--;
        if (level.isEmpty()) {
            final int index = levels[count - 1] == level ? count - 1 : find(rank(level.price()));
            System.arraycopy(ranks, index + 1, ranks, index, count - index - 1);
            System.arraycopy(levels, index + 1, levels, index, count - index - 1);
            levels[--count] = null;
            spare[spareCount++] = level;
        }
    }

    /** Puts {@code successor} where the resting {@code original} was, keeping its priority. */
    public void replaceInPlace(final Order original, final Order successor) {
        original.level.replaceInPlace(original, successor);
    }

    private long rank(final long price) {
        return bids ? price : -price;
    }

    /** @return the index of {@code rank}, or {@code -(insertion point) - 1}, as {@link java.util.Arrays#binarySearch}. */
    private int find(final long rank) {
        int low = 0;
        int high = count - 1;
        while (low <= high) {
            final int mid = (low + high) >>> 1;
            final long value = ranks[mid];
            if (value < rank) {
                low = mid + 1;
            } else if (value > rank) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -(low + 1);
    }
}

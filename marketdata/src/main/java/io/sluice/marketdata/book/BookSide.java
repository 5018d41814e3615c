package io.sluice.marketdata.book;

/**
 * One side of one instrument's book: its price levels, best first (bids high to low, asks low to high), each with
 * its total quantity, its order count and its queue of orders (the first and last order slot of {@link OrderBooks}),
 * in arrays sized at start. A level is found by binary search; a new level shifts the worse ones down.
 */
final class BookSide {
    private final boolean bids;
    private final long[] prices;
    private final long[] quantities;
    private final int[] counts;
    private final int[] heads;
    private final int[] tails;
    private int size;

    BookSide(final boolean bids, final int maxLevels) {
        this.bids = bids;
        prices = new long[maxLevels];
        quantities = new long[maxLevels];
        counts = new int[maxLevels];
        heads = new int[maxLevels];
        tails = new int[maxLevels];
    }

    int size() {
        return size;
    }

    long price(final int level) {
        return prices[level];
    }

    long quantity(final int level) {
        return quantities[level];
    }

    int count(final int level) {
        return counts[level];
    }

    int head(final int level) {
        return heads[level];
    }

    int tail(final int level) {
        return tails[level];
    }

    void head(final int level, final int slot) {
        heads[level] = slot;
    }

    void tail(final int level, final int slot) {
        tails[level] = slot;
    }

    void addQuantity(final int level, final long delta) {
        quantities[level] += delta;
    }

    /** @return the level of {@code price}, or {@code -(insertion point) - 1} if there is none */
    int find(final long price) {
        int low = 0;
        int high = size - 1;
        while (low <= high) {
            final int mid = (low + high) >>> 1;
            final long at = prices[mid];
            if (at == price) {
                return mid;
            }
            if (bids ? at > price : at < price) {
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return -(low + 1);
    }

    /** @return the new, empty level of {@code price} at {@code level}, or -1 if every level is taken */
    int insert(final int level, final long price) {
        if (size == prices.length) {
            return -1;
        }
        final int moved = size - level;
        System.arraycopy(prices, level, prices, level + 1, moved);
        System.arraycopy(quantities, level, quantities, level + 1, moved);
        System.arraycopy(counts, level, counts, level + 1, moved);
        System.arraycopy(heads, level, heads, level + 1, moved);
        System.arraycopy(tails, level, tails, level + 1, moved);
        prices[level] = price;
        quantities[level] = 0;
        counts[level] = 0;
        heads[level] = -1;
        tails[level] = -1;
        size++;
        return level;
    }

    void countOne(final int level, final int delta) {
        counts[level] += delta;
        if (counts[level] == 0) {
            final int moved = size - level - 1;
            System.arraycopy(prices, level + 1, prices, level, moved);
            System.arraycopy(quantities, level + 1, quantities, level, moved);
            System.arraycopy(counts, level + 1, counts, level, moved);
            System.arraycopy(heads, level + 1, heads, level, moved);
            System.arraycopy(tails, level + 1, tails, level, moved);
            size--;
        }
    }

    void clear() {
        size = 0;
    }
}

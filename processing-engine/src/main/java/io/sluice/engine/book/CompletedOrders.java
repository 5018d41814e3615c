package io.sluice.engine.book;

/**
 * The most recently completed orders (filled, canceled, replaced), oldest first. They are kept so that a cancel or
 * replace that arrives too late is told so, and a reused ClOrdID is caught as a duplicate. Only the last
 * {@code capacity} are remembered: when one more completes, the oldest is forgotten (removed from the
 * {@link OrderIndex} and returned to the {@link OrderPool}). The bound is what keeps memory flat however
 * many orders a day brings; it is configured as {@code completedOrderMemory}.
 */
public final class CompletedOrders {
    private final int capacity;
    private final OrderIndex index;
    private final OrderPool pool;
    private Order oldest;
    private Order newest;
    private int size;

    public CompletedOrders(final int capacity, final OrderIndex index, final OrderPool pool) {
        this.capacity = capacity;
        this.index = index;
        this.pool = pool;
    }

    /** Remembers {@code order}, which has just completed and left its book; may forget the oldest. */
    public void add(final Order order) {
        order.nextCompleted = null;
        if (newest == null) {
            oldest = order;
        } else {
            newest.nextCompleted = order;
        }
        newest = order;
        if (++size > capacity) {
            final Order forgotten = oldest;
            oldest = forgotten.nextCompleted;
            if (oldest == null) {
                newest = null;
            }
            size--;
            index.remove(forgotten);
            pool.release(forgotten);
        }
    }

    /** @return the oldest remembered order (the next ones by {@link Order#nextCompleted()}), or null */
    public Order oldest() {
        return oldest;
    }

    public int size() {
        return size;
    }
}

package io.sluice.engine.book;

/**
 * Every {@link Order} the engine will ever use, allocated at start: a stack of free instances. Taking
 * from an empty pool is a capacity bug in the caller (the engine bounds open and remembered orders so
 * that the pool always suffices) and fails loudly.
 */
public final class OrderPool {
    private final Order[] free;
    private int freeCount;

    public OrderPool(final int capacity) {
        free = new Order[capacity];
        for (int i = 0; i < capacity; i++) {
            free[i] = new Order();
        }
        freeCount = capacity;
    }

    /** @return a free order, its fields stale until {@link Order#accept} or {@link Order#succeed}. */
    public Order take() {
        if (freeCount == 0) {
            throw new IllegalStateException("order pool of " + free.length + " exhausted");
        }
        final Order order = free[--freeCount];
        free[freeCount] = null;
        return order;
    }

    /** Returns an order nothing refers to any more. */
    public void release(final Order order) {
        order.unlink();
        free[freeCount++] = order;
    }

    public int freeCount() {
        return freeCount;
    }
}

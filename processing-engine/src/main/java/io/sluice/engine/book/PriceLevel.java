package io.sluice.engine.book;

/**
 * The orders resting at one price on one side, oldest first: time priority within the price. An intrusive
 * doubly linked list through {@link Order}, so adding, removing and replacing in place are O(1) and
 * allocation-free.
 */
public final class PriceLevel {
    private long price;
    private Order head;
    private Order tail;

    void reset(final long price) {
        this.price = price;
        head = null;
        tail = null;
    }

    public long price() {
        return price;
    }

    /** @return the order with time priority, or null if the level is empty. */
    public Order head() {
        return head;
    }

    public boolean isEmpty() {
        return head == null;
    }

    /** Appends {@code order} behind every order already here. */
    void add(final Order order) {
        order.level = this;
        order.previous = tail;
        order.next = null;
        if (tail == null) {
            head = order;
        } else {
            tail.next = order;
        }
        tail = order;
    }

    void remove(final Order order) {
        final Order previous = order.previous;
        final Order next = order.next;
        if (previous == null) {
            head = next;
        } else {
            previous.next = next;
        }
        if (next == null) {
            tail = previous;
        } else {
            next.previous = previous;
        }
        order.level = null;
        order.previous = null;
        order.next = null;
    }

    /** Puts {@code successor} exactly where {@code original} was, keeping its time priority. */
    void replaceInPlace(final Order original, final Order successor) {
        successor.level = this;
        successor.previous = original.previous;
        successor.next = original.next;
        if (original.previous == null) {
            head = successor;
        } else {
            original.previous.next = successor;
        }
        if (original.next == null) {
            tail = successor;
        } else {
            original.next.previous = successor;
        }
        original.level = null;
        original.previous = null;
        original.next = null;
    }

    /**
     * @return the quantity available to {@code aggressor} here before the first order it must not trade with
     *         (the self-match stop, {@link Order#selfMatches}), at most {@code enough}; and a negative value
     *         {@code -(available + 1)} if such an order was reached.
     */
    long availableBefore(final Order aggressor, final long enough) {
        long available = 0;
        for (Order order = head; order != null && available < enough; order = order.next) {
            if (aggressor.selfMatches(order)) {
                return -(available + 1);
            }
            available += order.leavesQty();
        }
        return available;
    }
}

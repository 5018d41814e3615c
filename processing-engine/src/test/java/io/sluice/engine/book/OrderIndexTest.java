package io.sluice.engine.book;

import io.sluice.contracts.NewOrder;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The (gateway, session, ClOrdID) index finds exactly what was put and not removed, however keys collide. */
final class OrderIndexTest {
    @Test
    void agreesWithAHashMapThroughManyPutsAndRemoves() {
        final int capacity = 64;
        final OrderIndex index = new OrderIndex(capacity);
        final Map<String, Order> expected = new HashMap<>();
        final SplittableRandom random = new SplittableRandom(42);
        for (int step = 0; step < 200_000; step++) {
            // Few gateways, sessions and ids, so probe runs are long and deletions shift entries often.
            final int gatewayId = 1 + random.nextInt(2);
            final long session = random.nextInt(4);
            final long clOrdId = random.nextInt(40);
            final String key = gatewayId + "/" + session + "/" + clOrdId;
            final Order present = index.get(gatewayId, session, clOrdId);
            assertSame(expected.get(key), present, key);
            if (present == null && expected.size() < capacity) {
                final Order order = order(gatewayId, session, clOrdId);
                index.put(order);
                expected.put(key, order);
            } else if (present != null) {
                index.remove(present);
                expected.remove(key);
                assertNull(index.get(gatewayId, session, clOrdId));
            }
            assertEquals(expected.size(), index.size());
        }
    }

    @Test
    void theSameClOrdIdOfTwoSessionsNamesTwoOrders() {
        final OrderIndex index = new OrderIndex(4);
        final Order alice = order(1, 1, 7);
        final Order bob = order(1, 2, 7);
        index.put(alice);
        index.put(bob);
        assertSame(alice, index.get(1, 1, 7));
        assertSame(bob, index.get(1, 2, 7));
        assertNull(index.get(1, 3, 7));
    }

    @Test
    void theSameCompIdOnTwoGatewaysIsTwoSessions() {
        final OrderIndex index = new OrderIndex(4);
        final Order onGateway1 = order(1, 5, 7);
        index.put(onGateway1);
        assertNull(index.get(2, 5, 7), "gateway 2's session 5 does not find gateway 1's order");
        final Order onGateway2 = order(2, 5, 7);
        index.put(onGateway2);
        assertSame(onGateway1, index.get(1, 5, 7));
        assertSame(onGateway2, index.get(2, 5, 7));
        index.remove(onGateway1);
        assertNull(index.get(1, 5, 7));
        assertSame(onGateway2, index.get(2, 5, 7));
    }

    @Test
    void completedOrdersBeyondTheMemoryAreForgottenOldestFirst() {
        final OrderPool pool = new OrderPool(3);
        final OrderIndex index = new OrderIndex(3);
        final CompletedOrders completed = new CompletedOrders(2, index, pool);
        final Order[] orders = new Order[3];
        for (int i = 0; i < 3; i++) {
            orders[i] = pool.take().accept(i + 1, 1, new NewOrder().session(1).clOrdId(i + 1));
            index.put(orders[i]);
        }
        completed.add(orders[0]);
        completed.add(orders[1]);
        assertEquals(0, pool.freeCount());
        completed.add(orders[2]);
        assertNull(index.get(1, 1, 1), "the oldest completed order is forgotten");
        assertSame(orders[1], index.get(1, 1, 2));
        assertSame(orders[2], index.get(1, 1, 3));
        assertEquals(1, pool.freeCount(), "and its instance is free again");
    }

    private static Order order(final int gatewayId, final long session, final long clOrdId) {
        return new Order().accept(1, gatewayId, new NewOrder().session(session).clOrdId(clOrdId));
    }
}

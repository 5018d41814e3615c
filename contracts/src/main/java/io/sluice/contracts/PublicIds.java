package io.sluice.contracts;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Turns the internal counters behind OrderIDs and ExecIDs into the identifiers clients see. So no id tells a firm how
 * many orders or executions the venue had. Each kind of id is a keyed permutation of its counter (a Feistel
 * network of {@value #ROUNDS} rounds over 62 bits, round keys derived with SHA-256 from the deployment's key and the
 * kind), so ids stay unique, come out the same for the same key (a replay or a restart with the same config gives the
 * same ids byte for byte), and cost eight multiplications, allocating nothing. Four rounds are what a Feistel network
 * needs to be a strong pseudo-random permutation when its round function is a pseudo-random one (Luby and Rackoff); more
 * would cost the engine more per order than hiding a count is worth.
 * <p>
 * The key is the config's {@code idKey}: any text, kept secret by the deployment; empty for a built-in key, which
 * makes ids look random but is no secret (anyone with Sluice can undo it); {@value #COUNTERS} for no permutation at
 * all, the counters themselves (for tests and for journals recorded before ids were permuted). This is obfuscation of a
 * count, sound against anyone who sees only ids: it is not a cipher vetted against cryptanalysis.
 */
public final class PublicIds {
    /** The {@code idKey} that turns the permutation off: ids are the counters. */
    public static final String COUNTERS = "counters";
    /** Every permuted id is below this (and above 0): it fits a positive long and 19 decimal digits. */
    public static final long LIMIT = 1L << 62;

    private static final String BUILT_IN_KEY = "Sluice built-in id key: no secret";
    private static final int ROUNDS = 4;
    private static final int HALF_BITS = 31;
    private static final long HALF_MASK = (1L << HALF_BITS) - 1;

    private final long[] orderKeys;
    private final long[] execKeys;
    private final long[] gatewayExecKeys;
    private final long keyCheck;

    private PublicIds(final String key) {
        orderKeys = key == null ? null : roundKeys(key, "OrderID");
        execKeys = key == null ? null : roundKeys(key, "ExecID");
        gatewayExecKeys = key == null ? null : roundKeys(key, "gateway ExecID");
        keyCheck = key == null ? 0 : permute(roundKeys(key, "key check"), 0);
    }

    /** @param idKey the config's {@code idKey}: null or empty for the built-in key, {@value #COUNTERS} for none */
    public static PublicIds of(final String idKey) {
        if (COUNTERS.equals(idKey)) {
            return new PublicIds(null);
        }
        return new PublicIds(idKey == null || idKey.isEmpty() ? BUILT_IN_KEY : idKey);
    }

    /** @return true unless ids are the counters themselves */
    public boolean permutes() {
        return orderKeys != null;
    }

    /**
     * @return a value that differs between keys (with overwhelming likelihood) and says nothing about the ids: a
     *         snapshot records it, so that a restart under another key is refused; 0 for {@value #COUNTERS}
     */
    public long keyCheck() {
        return keyCheck;
    }

    /** @return the OrderID of the {@code count}th order (from 1): between 1 and {@link #LIMIT}, unique per count */
    public long orderId(final long count) {
        return orderKeys == null ? count : nonZero(orderKeys, count);
    }

    /** @return the ExecID of the {@code count}th execution (from 1) */
    public long execId(final long count) {
        return execKeys == null ? count : nonZero(execKeys, count);
    }

    /** @return the number in the ExecID of a report a gateway makes itself, for a strictly increasing {@code base} */
    public long gatewayExecId(final long base) {
        return gatewayExecKeys == null ? base : nonZero(gatewayExecKeys, base);
    }

    /** The permutation of [1, {@link #LIMIT}): 0 stays out of it by walking the cycle on past it. */
    private static long nonZero(final long[] keys, final long value) {
        long id = permute(keys, value & (LIMIT - 1));
        while (id == 0) {
            id = permute(keys, id);
        }
        return id;
    }

    /** A balanced Feistel network over two 31-bit halves: a permutation of [0, 2^62) for any round keys. */
    static long permute(final long[] keys, final long value) {
        long left = value >>> HALF_BITS;
        long right = value & HALF_MASK;
        for (final long key : keys) {
            final long next = left ^ round(right, key);
            left = right;
            right = next;
        }
        return left << HALF_BITS | right;
    }

    /** The inverse of {@link #permute}, for tests. */
    static long unpermute(final long[] keys, final long id) {
        long left = id >>> HALF_BITS;
        long right = id & HALF_MASK;
        for (int i = keys.length - 1; i >= 0; i--) {
            final long previous = right ^ round(left, keys[i]);
            right = left;
            left = previous;
        }
        return left << HALF_BITS | right;
    }

    /** The round function: the half and its key through MurmurHash3's 64-bit finaliser, cut to 31 bits. */
    private static long round(final long half, final long key) {
        long x = half + key;
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x & HALF_MASK;
    }

    /** @return {@value #ROUNDS} round keys: SHA-256 of the kind and the key, in 64-bit pieces */
    static long[] roundKeys(final String key, final String kind) {
        final long[] keys = new long[ROUNDS];
        try {
            final MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            final ByteBuffer digest = ByteBuffer.wrap(sha256.digest((kind + '\u0000' + key).getBytes(StandardCharsets.UTF_8)));
            for (int i = 0; i < ROUNDS; i++) {
                keys[i] = digest.getLong();
            }
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
        }
        return keys;
    }
}

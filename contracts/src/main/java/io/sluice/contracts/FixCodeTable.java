package io.sluice.contracts;

/**
 * Maps a FIX character value back to its enum constant without allocating or throwing: one array
 * lookup. Unknown or out-of-range codes map to {@code null}, which callers treat as "not given".
 *
 * @param <E> the enum type
 */
public final class FixCodeTable<E extends Enum<E> & FixCoded> {
    private final Object[] byCode = new Object[128];

    public FixCodeTable(final E[] constants) {
        for (final E constant : constants) {
            final char code = constant.fixCode();
            if (code >= byCode.length || byCode[code] != null) {
                throw new IllegalArgumentException("FIX code '" + code + "' of " + constant + " is out of range or taken");
            }
            byCode[code] = constant;
        }
    }

    /** @return the constant for {@code code}, or {@code null} if no constant has that code. */
    @SuppressWarnings("unchecked")
    public E of(final int code) {
        return code >= 0 && code < byCode.length ? (E) byCode[code] : null;
    }

    /** @return the code to store for {@code constant}; {@code 0} stands for "not given". */
    public static byte codeOf(final FixCoded constant) {
        return constant == null ? 0 : (byte) constant.fixCode();
    }
}

package io.sluice.contracts;

/**
 * An enum whose constants stand for the one-character values of a FIX tag. The character is what the
 * journal stores, so a journal stays readable across versions even if constants are reordered.
 */
public interface FixCoded {
    /** @return the FIX value of this constant, an ASCII character. */
    char fixCode();
}

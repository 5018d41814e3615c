package io.sluice.gateway.codec;

/**
 * The FIX 4.4 repeating groups the parser knows how to step over: for each, its NumInGroup tag, its
 * delimiter (the first field of every instance) and its member tags. The parser marks member fields as
 * group fields so they never shadow body fields, checks that the number of instances matches NumInGroup,
 * and follows nested groups. A NumInGroup tag not listed here is an ordinary field; repeated members of
 * such a group are then rejected as duplicate tags.
 */
public final class FixGroups {
    /** Returned by {@link #groupOf} for a tag that does not start a known group. */
    public static final int NONE = -1;

    /** {countTag, delimiter, other members...}; nested group count tags are members of their parent. */
    private static final int[][] GROUPS = {
            {453, 448, 447, 452, 802},          // Parties
            {802, 523, 803},                    // PtysSubGrp
            {539, 524, 525, 538, 804},          // NestedParties
            {804, 545, 805},                    // NstdPtysSubGrp
            {454, 455, 456},                    // SecAltIDGrp
            {864, 865, 866, 867, 868},          // EvntGrp
            {232, 233, 234},                    // Stipulations
            {386, 336, 625},                    // TrdgSesGrp
            {78, 79, 661, 736, 467, 539, 80},   // PreAllocGrp
            {627, 628, 629, 630},               // HopGrp (header)
    };

    private FixGroups() {
    }

    /** @return the id of the group {@code countTag} introduces, or {@link #NONE}. */
    public static int groupOf(final int countTag) {
        for (int i = 0; i < GROUPS.length; i++) {
            if (GROUPS[i][0] == countTag) {
                return i;
            }
        }
        return NONE;
    }

    /** @return the NumInGroup tag of the group. */
    public static int countTag(final int group) {
        return GROUPS[group][0];
    }

    /** @return the tag that starts every instance of the group. */
    public static int delimiter(final int group) {
        return GROUPS[group][1];
    }

    /** @return true if {@code tag} belongs to an instance of the group. */
    public static boolean isMember(final int group, final int tag) {
        final int[] members = GROUPS[group];
        for (int i = 1; i < members.length; i++) {
            if (members[i] == tag) {
                return true;
            }
        }
        return false;
    }
}

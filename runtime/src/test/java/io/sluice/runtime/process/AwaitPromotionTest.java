package io.sluice.runtime.process;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A process started by a standby follows its words until PROMOTED, and stops waiting when the standby is gone. */
class AwaitPromotionTest {
    @Test
    void everyWordTheStandbyTellsIsFollowedUntilPromoted() throws IOException {
        final ByteArrayOutputStream pipe = new ByteArrayOutputStream();
        AwaitPromotion.tell(pipe, AwaitPromotion.Word.TAKING_OVER);
        AwaitPromotion.tell(pipe, AwaitPromotion.Word.STANDING_BY);
        AwaitPromotion.tell(pipe, AwaitPromotion.Word.TAKING_OVER);
        AwaitPromotion.tell(pipe, AwaitPromotion.Word.PROMOTED);
        AwaitPromotion.tell(pipe, AwaitPromotion.Word.STANDING_BY); // after the promotion: read by no one
        final List<AwaitPromotion.Word> heard = new ArrayList<>();

        assertEquals(AwaitPromotion.Outcome.PROMOTED,
                AwaitPromotion.await(new ByteArrayInputStream(pipe.toByteArray()), heard::add));
        assertEquals(List.of(AwaitPromotion.Word.TAKING_OVER, AwaitPromotion.Word.STANDING_BY,
                AwaitPromotion.Word.TAKING_OVER, AwaitPromotion.Word.PROMOTED), heard);
    }

    @Test
    void anInputThatEndsBeforePromotedIsAStandbyGone() throws IOException {
        final ByteArrayOutputStream pipe = new ByteArrayOutputStream();
        AwaitPromotion.tell(pipe, AwaitPromotion.Word.TAKING_OVER);
        final List<AwaitPromotion.Word> heard = new ArrayList<>();

        assertEquals(AwaitPromotion.Outcome.STANDBY_GONE,
                AwaitPromotion.await(new ByteArrayInputStream(pipe.toByteArray()), heard::add));
        assertEquals(List.of(AwaitPromotion.Word.TAKING_OVER), heard);
    }

    @Test
    void aLineThatIsNoWordIsRefusedNamingIt() {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> AwaitPromotion.await(
                new ByteArrayInputStream("go\n".getBytes(StandardCharsets.US_ASCII)), word -> { }));
        assertTrue(refused.getMessage().contains("got 'go'"), refused.getMessage());
        assertTrue(refused.getMessage().contains(AwaitPromotion.OPTION), refused.getMessage());
    }
}

package io.sluice.runtime.admin;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The admin journal is created owner-only, refused when wider, and numbers its commands 1, 2, 3 across writers. */
final class AdminJournalTest {
    @TempDir
    Path root;

    @Test
    void isCreatedOwnerOnly() throws Exception {
        try (AdminJournal journal = AdminJournal.open(root, SystemNanoClock.INSTANCE)) {
            journal.append(new AdminCommand().action(AdminAction.CANCEL_ALL));
        }
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(Journals.adminJournal(root))));
    }

    @Test
    void aWiderModeIsRefusedNamingTheDirectoryAndMode() throws Exception {
        Files.createDirectory(Journals.adminJournal(root), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.setPosixFilePermissions(Journals.adminJournal(root), PosixFilePermissions.fromString("rwxrwx---"));
        final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> AdminJournal.requireOwnerOnly(root));
        assertTrue(refused.getMessage().contains(Journals.adminJournal(root).toAbsolutePath() + " is owned by"), refused.getMessage());
        assertTrue(refused.getMessage().contains("rwxrwx---"), refused.getMessage());
        assertThrows(IllegalStateException.class, () -> AdminJournal.open(root, SystemNanoClock.INSTANCE));
    }

    @Test
    void eventIdsCountFromOneWithoutGapsAcrossWriters() {
        try (AdminJournal first = AdminJournal.open(root, SystemNanoClock.INSTANCE);
             AdminJournal second = AdminJournal.open(root, SystemNanoClock.INSTANCE)) {
            assertEquals(1, first.append(new AdminCommand().action(AdminAction.HALT)));
            assertEquals(2, second.append(new AdminCommand().action(AdminAction.RESUME)));
            assertEquals(3, first.append(new AdminCommand().action(AdminAction.CANCEL_ALL)));
        }
        final List<String> read = new ArrayList<>();
        try (ChronicleQueue queue = Journals.openReadOnly(Journals.adminJournal(root))) {
            final MethodReader reader = queue.createTailer().methodReader((AdminCommands) c ->
                    read.add(c.metaData().sourceId() + ":" + c.metaData().eventId() + ":" + c.action()));
            while (reader.readOne()) {
                // collecting
            }
        }
        assertEquals(List.of("0:1:HALT", "0:2:RESUME", "0:3:CANCEL_ALL"), read);
    }
}

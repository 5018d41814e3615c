package io.sluice.replication;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.runtime.admin.AdminJournal;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** What {@link JournalVerification} needs of the build: a standby checks what its receiver writes, and stalls for nothing. */
class JournalVerificationTest {
    @TempDir
    Path root;

    /**
     * Chronicle compiles a reader whose class is not on the class path with javac, in the calling thread: a standby's
     * watch, on that thread, once stalled seconds when its receiver wrote the first journal, and found a partition late.
     */
    @Test
    void itsJournalReaderIsAClassTheBuildGeneratedSoAStandbyCompilesNothingWhileItWatches() {
        try (AdminJournal admin = AdminJournal.open(root, SystemNanoClock.INSTANCE)) {
            admin.append(new AdminCommand().action(AdminAction.HALT));
        }
        try (JournalVerification verification = new JournalVerification(root)) {
            verification.readToEnd();
            final List<Class<?>> readers = verification.readerClasses();
            assertEquals(1, readers.size(), "one reader for the one journal: " + readers);
            final String name = readers.get(0).getName();
            assertNotNull(JournalVerification.class.getClassLoader().getResource(name.replace('.', '/') + ".class"),
                    name + " is not on the class path: ReplicationCodegen must read with JournalVerification so the"
                            + " build generates it");
        }
    }
}

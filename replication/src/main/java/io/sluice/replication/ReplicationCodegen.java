package io.sluice.replication;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminCommands;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.codegen.CodegenExercise;
import org.agrona.concurrent.SystemNanoClock;

import java.nio.file.Path;

/**
 * The replication processes' {@link CodegenExercise}: their journal readers and writers, built once by the build.
 * The shipper reads the admin journal at start and appends FENCED when fenced ({@link ShipperLease}); a standby and
 * {@code ./sluice promote} check every journal through {@link JournalVerification}'s reader. Run by the build (see
 * replication/pom.xml), so that no replication process compiles with javac while it runs: a standby did so when its
 * receiver wrote the first journal, its watch stalled for seconds on a loaded host, and a partition found then was
 * detected that much late.
 */
public final class ReplicationCodegen implements CodegenExercise {
    @Override
    public void buildWritersAndReaders(final Path scratch) {
        try (AdminJournal admin = AdminJournal.open(scratch, SystemNanoClock.INSTANCE)) {
            admin.append(new AdminCommand().action(AdminAction.FENCED));
            admin.readAll((AdminCommands) read -> {
            });
        }
        try (JournalVerification verification = new JournalVerification(scratch)) {
            verification.readToEnd();
        }
    }
}

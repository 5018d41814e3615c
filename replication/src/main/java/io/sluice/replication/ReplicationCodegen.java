package io.sluice.replication;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminCommands;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.codegen.CodegenExercise;
import org.agrona.concurrent.SystemNanoClock;

import java.nio.file.Path;

/**
 * The replication processes' {@link CodegenExercise}: the shipper's admin journal work, done once. The shipper reads
 * the admin journal at start and appends FENCED when fenced ({@link ShipperLease}); its receiver and
 * standby build no method writer or reader. Run by the build (see replication/pom.xml), so that a standby's promotion
 * compiles nothing.
 */
public final class ReplicationCodegen implements CodegenExercise {
    @Override
    public void buildWritersAndReaders(final Path scratch) {
        try (AdminJournal admin = AdminJournal.open(scratch, SystemNanoClock.INSTANCE)) {
            admin.append(new AdminCommand().action(AdminAction.FENCED));
            admin.readAll((AdminCommands) read -> {
            });
        }
    }
}

package io.sluice.replication;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.codegen.CodegenExercise;
import org.agrona.concurrent.SystemNanoClock;

import java.nio.file.Path;

/**
 * The replication processes' {@link CodegenExercise}: the shipper's admin journal work, done once. The shipper appends
 * the lease's commands to the admin journal and reads them back at start ({@link ShipperLease}); its receiver and
 * standby build no method writer or reader. Run by the build (see replication/pom.xml), so that a standby's promotion
 * compiles nothing.
 */
public final class ReplicationCodegen implements CodegenExercise {
    @Override
    public void buildWritersAndReaders(final Path scratch) {
        try (AdminJournal admin = AdminJournal.open(scratch)) {
            admin.append(new AdminCommand().action(AdminAction.LEASE_LAPSED));
        }
        new ShipperLease(new ReplicationConfig().mode(ReplicationConfig.Mode.SHIP).deployment("codegen").root(scratch),
                SystemNanoClock.INSTANCE).close();
    }
}

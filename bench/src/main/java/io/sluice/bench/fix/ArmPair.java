package io.sluice.bench.fix;

import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The two arms of an A/B benchmark of whole deployments ({@link PausableDeployment}), started one after the other under
 * one temporary directory and closed together, the directory deleted: if the second fails to start, the first is
 * closed.
 */
final class ArmPair implements AutoCloseable {
    /** One arm to start: its label in the report, its directory under the pair's, its extra config settings. */
    record Arm(String label, String directory, String settings) {
    }

    private final Path root;
    private final List<PausableDeployment> arms = new ArrayList<>(2);

    private ArmPair(final Path root) {
        this.root = root;
    }

    /**
     * @param tempPrefix the prefix of the pair's temporary directory
     * @param idle       what the engine and gateway threads of both arms do when idle
     */
    static ArmPair start(final String tempPrefix, final SluiceIdle idle, final Arm first, final Arm second)
            throws IOException, InterruptedException {
        final ArmPair pair = new ArmPair(Files.createTempDirectory(tempPrefix));
        try {
            for (final Arm arm : List.of(first, second)) {
                pair.arms.add(PausableDeployment.start(arm.label(), pair.root.resolve(arm.directory()), arm.settings(),
                        idle));
            }
            return pair;
        } catch (final IOException | RuntimeException | InterruptedException e) {
            pair.close();
            throw e;
        }
    }

    Path root() {
        return root;
    }

    /** @return both arms, in the order started */
    List<PausableDeployment> arms() {
        return arms;
    }

    List<FixTarget> targets() {
        return arms.stream().map(PausableDeployment::target).toList();
    }

    /** Resumes every arm stopped for the other's turn. */
    void allRunning() {
        for (final PausableDeployment arm : arms) {
            arm.running(true);
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            for (final PausableDeployment arm : arms) {
                arm.close();
            }
        } finally {
            SluiceDeployment.deleteTree(root);
        }
    }
}

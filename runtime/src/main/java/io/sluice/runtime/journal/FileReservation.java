package io.sluice.runtime.journal;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Real disk blocks behind a range of a (sparse) file, through Linux {@code fallocate(2)} with {@code
 * FALLOC_FL_KEEP_SIZE}. The blocks are allocated, the bytes and the file's size are left as they are, so it is safe
 * while another thread or process writes the file through a mapping. A store into a mapped page with
 * no block behind it on a full filesystem kills the process with SIGBUS; a store into a reserved one cannot fail.
 * Writing zeros at the end of a sparse file, or {@code RandomAccessFile.setLength}, allocates nothing in between.
 * Called through the JDK's foreign function API ({@code --enable-native-access}, set in jvm.options).
 */
public final class FileReservation implements AutoCloseable {
    /** errno when the filesystem has no room for the blocks. */
    public static final int ENOSPC = 28;
    /** errno when the filesystem cannot reserve blocks (no fallocate support). */
    public static final int EOPNOTSUPP = 95;
    private static final int EINTR = 4;
    private static final int O_RDWR = 2;
    private static final int O_CLOEXEC = 0x80000;
    private static final int FALLOC_FL_KEEP_SIZE = 1;
    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(groupElement("errno"));
    private static final MethodHandle OPEN = downcall("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
            Linker.Option.firstVariadicArg(2));
    private static final MethodHandle FALLOCATE = downcall("fallocate",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));

    private final Path file;
    private final Arena arena = Arena.ofShared(); // opened on the writer's thread at start, used by the keeper
    private final MemorySegment callState = arena.allocate(CALL_STATE);
    private final int fd;

    /**
     * Opens {@code file} (which must exist) for reserving; one thread at a time uses the instance.
     *
     * @throws IOException naming the file and the errno if it cannot be opened
     */
    public FileReservation(final Path file) throws IOException {
        this.file = file;
        try {
            final MemorySegment path = arena.allocateFrom(file.toAbsolutePath().toString());
            fd = (int) OPEN.invokeExact(callState, path, O_RDWR | O_CLOEXEC, 0);
        } catch (final Throwable e) {
            arena.close();
            throw new IOException("cannot open " + file + " to reserve space in it", e);
        }
        if (fd < 0) {
            final int errno = errno();
            arena.close();
            throw new IOException("cannot open " + file + " to reserve space in it: errno " + errno);
        }
    }

    /** @return the file whose blocks this reserves */
    public Path file() {
        return file;
    }

    /**
     * Allocates blocks for {@code [offset, offset + length)}; ranges already backed cost no new space.
     *
     * @return 0 once reserved, or the errno: {@link #ENOSPC} when the filesystem is full
     */
    public int reserve(final long offset, final long length) {
        try {
            int result;
            do {
                result = (int) FALLOCATE.invokeExact(callState, fd, FALLOC_FL_KEEP_SIZE, offset, length);
            } while (result != 0 && errno() == EINTR);
            return result == 0 ? 0 : errno();
        } catch (final Throwable e) {
            throw new IllegalStateException("fallocate of " + file + " failed to run", e);
        }
    }

    @Override
    public void close() {
        try {
            final int ignored = (int) CLOSE.invokeExact(callState, fd);
        } catch (final Throwable e) {
            throw new IllegalStateException("close of " + file + " failed to run", e);
        } finally {
            arena.close();
        }
    }

    private int errno() {
        return (int) ERRNO.get(callState, 0L);
    }

    private static MethodHandle downcall(final String name, final FunctionDescriptor descriptor,
                                         final Linker.Option... options) {
        final Linker.Option[] all = new Linker.Option[options.length + 1];
        all[0] = Linker.Option.captureCallState("errno");
        System.arraycopy(options, 0, all, 1, options.length);
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(
                () -> new ExceptionInInitializerError("the C library has no " + name)), descriptor, all);
    }
}

package io.sluice.systemtests.alloc;

import com.sun.management.ThreadMXBean;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadInfo;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A running child JVM's own management beans, reached over JMX: the test attaches to the child (attach API),
 * has it start its local management agent, and connects. What it reads is what the child's
 * {@link com.sun.management.ThreadMXBean} counts, exact to the byte, so a hot thread of a real engine or
 * gateway process is measured without a line of measuring code in that process; the agent's work runs on
 * threads of its own, never on the thread measured.
 */
final class ChildJvm implements AutoCloseable {
    private final long pid;
    private final JMXConnector connector;
    private final ThreadMXBean threads;
    private final MemoryMXBean memory;
    private final MBeanServerConnection beans;

    /** What one thread had done when read: bytes allocated and CPU time used since it started. */
    record ThreadCounters(long allocatedBytes, long cpuNanos) {
    }

    private ChildJvm(final long pid, final JMXConnector connector) throws IOException {
        this.pid = pid;
        this.connector = connector;
        beans = connector.getMBeanServerConnection();
        threads = ManagementFactory.newPlatformMXBeanProxy(beans, ManagementFactory.THREAD_MXBEAN_NAME,
                ThreadMXBean.class);
        memory = ManagementFactory.newPlatformMXBeanProxy(beans, ManagementFactory.MEMORY_MXBEAN_NAME,
                MemoryMXBean.class);
    }

    /** Attaches to the JVM {@code pid} (same user, same host) and connects to its management agent. */
    static ChildJvm attach(final long pid) throws IOException {
        final String address;
        try {
            final VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
        } catch (final AttachNotSupportedException e) {
            throw new IOException("cannot attach to JVM " + pid + ": " + e.getMessage(), e);
        }
        return new ChildJvm(pid, JMXConnectorFactory.connect(new JMXServiceURL(address)));
    }

    /**
     * @return the id of the thread named {@code roleName} running an Agrona {@code AgentRunner}: the thread an agent of
     *         that role name runs on ({@code io.sluice.runtime.agent.AgentThread} names it so)
     * @throws IllegalStateException if there is none
     */
    long agentThread(final String roleName) {
        for (final ThreadInfo thread : threads.dumpAllThreads(false, false)) {
            if (thread.getThreadName().equals(roleName)) {
                for (final StackTraceElement frame : thread.getStackTrace()) {
                    if (frame.getClassName().equals("org.agrona.concurrent.AgentRunner") && frame.getMethodName().equals("run")) {
                        return thread.getThreadId();
                    }
                }
            }
        }
        throw new IllegalStateException("no thread of JVM " + pid + " runs the agent '" + roleName + "'");
    }

    /** @return the name of thread {@code id}. */
    String threadName(final long id) {
        final ThreadInfo info = threads.getThreadInfo(id);
        return info == null ? "(ended)" : info.getThreadName();
    }

    /** @return thread {@code id}'s counters now; -1 if the thread has ended. */
    ThreadCounters counters(final long id) {
        return new ThreadCounters(threads.getThreadAllocatedBytes(id), threads.getThreadCpuTime(id));
    }

    /** @return the {@code long} attribute {@code attribute} of the child's MBean {@code objectName}. */
    long longAttribute(final String objectName, final String attribute) throws IOException {
        try {
            return (Long) beans.getAttribute(new ObjectName(objectName), attribute);
        } catch (final JMException e) {
            throw new IOException("cannot read " + objectName + " " + attribute + " of JVM " + pid + ": " + e, e);
        }
    }

    /** @return the child's heap use now (under Epsilon: every byte allocated since start). */
    MemoryUsage heap() {
        return memory.getHeapMemoryUsage();
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}

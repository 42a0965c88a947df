package io.rackfabric.host.ftgm;

import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.host.nic.McpMode;
import java.util.ArrayList;
import java.util.List;

/**
 * One card's recovery in model time, the components of FTGM Table 3 and Figure 9, read off
 * the events of the run: the fault taking effect, the daemon woken by the watchdog's interrupt,
 * FAULT_DETECTED posted to the last port, and each port's handler having reopened its port.
 *
 * @param detectionNs fault to the daemon woken (the watchdog's interval and the interrupt)
 * @param daemonNs daemon woken to FAULT_DETECTED in every open port (check, reset, reload, tables)
 * @param perProcessNs each port's handler, in the order they ran (they run one at a time)
 * @param totalNs fault to the last port reopened
 */
public record RecoveryBreakdown(
    String nic,
    McpMode mode,
    int openPorts,
    long faultAt,
    long daemonWokenAt,
    long daemonDoneAt,
    List<Long> portsRecoveredAt,
    long detectionNs,
    long daemonNs,
    List<Long> perProcessNs,
    long totalNs) implements WireMessage {

  public RecoveryBreakdown {
    portsRecoveredAt = List.copyOf(portsRecoveredAt);
    perProcessNs = List.copyOf(perProcessNs);
  }

  /** Out of the recorded times; {@code recoveredAt} in any order. */
  public static RecoveryBreakdown of(String nic, McpMode mode, long faultAt, FaultToleranceDaemon.Recovery r,
      List<Long> recoveredAt) {
    List<Long> sorted = recoveredAt.stream().sorted().toList();
    List<Long> perProcess = new ArrayList<>();
    long previous = r.doneAt();
    for (long t : sorted) {
      perProcess.add(t - Math.max(previous, r.doneAt()));
      previous = t;
    }
    long end = sorted.isEmpty() ? r.doneAt() : sorted.get(sorted.size() - 1);
    return new RecoveryBreakdown(nic, mode, r.ports().size(), faultAt, r.wokenAt(), r.doneAt(), sorted,
        r.wokenAt() - faultAt, r.doneAt() - r.wokenAt(), perProcess, end - faultAt);
  }

  /** Mean per-process recovery, ns (0 without open ports). */
  public long perProcessMeanNs() {
    return perProcessNs.isEmpty() ? 0 : perProcessNs.stream().mapToLong(Long::longValue).sum() / perProcessNs.size();
  }

  /** Table 3 in microseconds. */
  public String render() {
    return String.format("%s (%s, %d open ports), model time:%n"
            + "  fault detection time     %12.1f us%n"
            + "  FTD recovery time        %12.1f us%n"
            + "  per-process recovery     %12.1f us (mean of %d)%n"
            + "  complete recovery        %12.1f us%n",
        nic, mode, openPorts, detectionNs / 1e3, daemonNs / 1e3, perProcessMeanNs() / 1e3, perProcessNs.size(),
        totalNs / 1e3);
  }
}

package io.rackfabric.host.ftgm;

import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.host.nic.McpMode;
import io.rackfabric.host.nic.NicSettings;

/**
 * What FTGM's host copies and delayed ACK cost in normal operation, against GM in the same run
 * (FTGM Table 2): mean one-way latency from the sending application's call to the receiving
 * application having the message, and host CPU per send and per receive, model ns, out of a
 * fault-free testbed of each.
 */
public record OverheadReport(int messages, long gmLatencyNs, long ftgmLatencyNs, long gmSendCpuNs,
    long ftgmSendCpuNs, long gmReceiveCpuNs, long ftgmReceiveCpuNs) implements WireMessage {

  public long latencyOverheadNs() {
    return ftgmLatencyNs - gmLatencyNs;
  }

  /**
   * {@code messages} messages from port 0 of the NIC to the server, far enough apart that none
   * waits for another, once under GM and once under FTGM.
   */
  public static OverheadReport measure(FtgmSettings settings, NicSettings nic, int messages) {
    long interval = settings.timing().lTimerIntervalNs();
    long[] gm = run(settings, nic, McpMode.GM, messages, interval);
    long[] ftgm = run(settings, nic, McpMode.FTGM, messages, interval);
    return new OverheadReport(messages, gm[0], ftgm[0], gm[1], ftgm[1], gm[2], ftgm[2]);
  }

  private static long[] run(FtgmSettings settings, NicSettings nic, McpMode mode, int messages, long interval) {
    FtgmTestbed bed = new FtgmTestbed("nic", mode, settings, nic, 1);
    bed.start(0);
    bed.traffic(messages, interval, interval, true);
    if (!bed.runUntilSettled((messages + 2L) * interval + settings.settleLimitNs())) {
      throw new IllegalStateException("mode=" + mode + ": fault-free traffic did not settle");
    }
    PortLibrary sender = bed.library("nic", 0);
    PortLibrary receiver = bed.library(FtgmTestbed.REMOTE, 0);
    return new long[] {bed.log().meanLatencyNs(), sender.sendCpuNs() / Math.max(1, sender.sends()),
        receiver.receiveCpuNs() / Math.max(1, receiver.receives())};
  }

  public String render() {
    return String.format("Normal operation, model time, %d messages:%n"
            + "  latency          GM %8.2f us   FTGM %8.2f us   (+%.2f us)%n"
            + "  host CPU, send   GM %8.2f us   FTGM %8.2f us%n"
            + "  host CPU, recv   GM %8.2f us   FTGM %8.2f us%n",
        messages, gmLatencyNs / 1e3, ftgmLatencyNs / 1e3, latencyOverheadNs() / 1e3, gmSendCpuNs / 1e3,
        ftgmSendCpuNs / 1e3, gmReceiveCpuNs / 1e3, ftgmReceiveCpuNs / 1e3);
  }
}

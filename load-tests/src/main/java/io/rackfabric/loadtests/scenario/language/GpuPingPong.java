package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.host.device.gpu.GpuDevice.RegisterWrite;
import io.rackfabric.host.device.gpu.GpuRegisters;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * One workload of a scenario's {@code gpu-ping-pong}: Device Lending's latency program on two
 * GPUs ({@code device = gpu}), device-initiated (host-actors {@code PingPongKernel}): {@code ping}
 * writes a counter to {@code pingToPong} and waits for it at {@code pingWaits}; {@code pong} waits
 * at {@code pongWaits} and writes each increase back to {@code pongToPing}, {@code count} rounds.
 * Every address was followed through the topology by the route explainer.
 *
 * @param via {@code p2p}: each counter word is in the other GPU's memory (BAR1), waited on as a
 *     write landing there; {@code ram}: both words are in {@code ramHost}'s RAM, each polled by the
 *     GPU that waits on it with 4-byte reads
 * @param pingWaits the word ping waits on, as ping addresses it (in its BAR1 for p2p)
 * @param pongWaits the word pong waits on, as pong addresses it
 * @param ramHost via RAM: the root whose RAM holds the words; null for p2p
 * @param ramToPong via RAM: the word pong waits on, in {@code ramHost}'s RAM (reset before the run)
 * @param ramToPing via RAM: the word ping waits on, in {@code ramHost}'s RAM
 * @param compareTo another workload of the scenario whose round trip this one's is compared with
 *     in the figures, or null
 * @param where {@code file:line} of the workload
 */
public record GpuPingPong(String name, String ping, String pong, Via via, long pingToPong, long pongToPing,
    long pingWaits, long pongWaits, String ramHost, long ramToPong, long ramToPing, int count, String compareTo,
    String where) {

  /** The most rounds a workload runs: each is a few model-time events, a few more when polled. */
  public static final int MAX_COUNT = 100_000;

  /** Where the counter words are. */
  public enum Via {
    P2P, RAM;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Ping's registers: PP_MODE 1 to PP_DOORBELL in one write, the doorbell last. */
  public List<RegisterWrite> pingRegisters() {
    return registers(1, pingToPong, pingWaits);
  }

  /** Pong's registers: PP_MODE 2 to PP_DOORBELL in one write. */
  public List<RegisterWrite> pongRegisters() {
    return registers(2, pongToPing, pongWaits);
  }

  private List<RegisterWrite> registers(int mode, long remote, long waitOn) {
    byte[] all = ByteBuffer.allocate(GpuRegisters.PP_DOORBELL + 4 - GpuRegisters.PP_MODE)
        .order(ByteOrder.LITTLE_ENDIAN).putInt(mode).putInt(count).putLong(remote).putLong(waitOn).putInt(1).array();
    return List.of(new RegisterWrite(GpuRegisters.PP_MODE, all));
  }
}

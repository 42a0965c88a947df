package io.rackfabric.fabric.management;

/**
 * The fabric manager's own processing, in model time: what it spends on each management packet it
 * takes (a read completion, a PI-5 event) and on each device it adds to its database, before it
 * sends what the packet leads to. One step at a time: a packet that arrives while it is busy waits.
 *
 * @param perPacketNs model time per packet taken, ns
 * @param perDeviceNs model time per device added to the database, ns (its own included)
 */
public record ProcessingCost(long perPacketNs, long perDeviceNs) {

  /** No processing time: the fabric manager acts at the model time a packet arrives. */
  public static final ProcessingCost NONE = new ProcessingCost(0, 0);

  public ProcessingCost {
    if (perPacketNs < 0) {
      throw new IllegalArgumentException("fm-processing-per-packet=" + perPacketNs + "ns is negative");
    }
    if (perDeviceNs < 0) {
      throw new IllegalArgumentException("fm-processing-per-device=" + perDeviceNs + "ns is negative");
    }
  }

  /** The model time {@code packets} packets and {@code devices} devices added cost, ns. */
  public long of(long packets, long devices) {
    return packets * perPacketNs + devices * perDeviceNs;
  }
}

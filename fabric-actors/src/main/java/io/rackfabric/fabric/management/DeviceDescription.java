package io.rackfabric.fabric.management;

import java.util.List;

/**
 * A device as its configuration space describes it: built from the rack's topology (a switch
 * chip, or an endpoint with its one port), every value following from it.
 *
 * @param id the topology's component id, for messages; the fabric manager never sees it
 * @param serial the device's serial number, its identity on the fabric
 * @param maxPayload the largest payload the device sends or takes, bytes (Max_Payload_Size)
 * @param ports every port, numbered 0 to ports.size() - 1 in order
 * @param candidatePriority the device runs a fabric-manager driver with this priority (0 the
 *     first choice); -1 when it runs none
 */
public record DeviceDescription(
    String id, DeviceType type, long serial, int maxPayload, List<PortDescription> ports, int candidatePriority) {

  public DeviceDescription {
    ports = List.copyOf(ports);
    if (ports.isEmpty() || ports.size() > BaselineCapability.MAX_PORTS) {
      throw new IllegalArgumentException(
          id + ": ports=" + ports.size() + " not in [1," + BaselineCapability.MAX_PORTS + "]");
    }
    for (int i = 0; i < ports.size(); i++) {
      if (ports.get(i).number() != i) {
        throw new IllegalArgumentException(id + ": port at index " + i + " has number=" + ports.get(i).number());
      }
    }
    if (type == DeviceType.ENDPOINT && ports.size() != 1) {
      throw new IllegalArgumentException(id + ": an endpoint has one port, ports=" + ports.size());
    }
    if (maxPayload < 128 || maxPayload > 4096 || Integer.bitCount(maxPayload) != 1) {
      throw new IllegalArgumentException(id + ": maxPayload=" + maxPayload + " not a power of two in [128,4096]");
    }
    if (candidatePriority < -1 || candidatePriority > 255) {
      throw new IllegalArgumentException(id + ": candidatePriority=" + candidatePriority + " not in [-1,255]");
    }
  }
}

package io.rackfabric.fabric.management;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkParameters;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Device descriptions for the tests: switches of any size, endpoints. */
final class TestDevices {

  static final LinkParameters GEN1_X1 = new LinkParameters(1, 1, 5);

  private TestDevices() {}

  /** A switch of {@code ports} ports, those in {@code linked} wired at Gen1 x1 and in {@code state}. */
  static DeviceDescription switchOf(String id, long serial, int ports, Set<Integer> linked, DataLinkState state) {
    List<PortDescription> list = new ArrayList<>();
    for (int i = 0; i < ports; i++) {
      list.add(linked.contains(i)
          ? new PortDescription(i, PortKind.DOWNSTREAM, 1, GEN1_X1, state, state)
          : PortDescription.unused(i));
    }
    return new DeviceDescription(id, DeviceType.SWITCH, serial, 256, list, -1);
  }

  static DeviceDescription endpoint(String id, long serial, int candidatePriority, DataLinkState state) {
    return new DeviceDescription(id, DeviceType.ENDPOINT, serial, 256,
        List.of(new PortDescription(0, PortKind.ENDPOINT, 0, GEN1_X1, state, state)), candidatePriority);
  }
}

package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The endpoint key {@code device}: what runs behind an endpoint's BARs. */
class EndpointDeviceKeyTest {

  /** A root and one device below a switch; {@code %s} is the device endpoint's extra keys. */
  static String rack(String deviceKeys, String rootKeys) {
    return String.join("\n",
        "rack {",
        "  name = gpu-rack",
        "  nodes = [ { name = n1, host = \"127.0.0.1\", port = 25521 } ]",
        "  switches = [ { id = sw, node = n1, ports = [",
        "    { name = up, number = 0, role = upstream, buses = [0, 1, 2], memory = [\"0x10000000\", \"0x1FFFFFFF\"] }",
        "    { name = down, number = 1, role = downstream, buses = [1, 2, 2], memory = [\"0x10000000\", \"0x101FFFFF\"] }",
        "  ] } ]",
        "  endpoints = [",
        "    { id = rc, node = n1, root = true" + rootKeys + ", bars = [ { base = \"0x0\", size = \"1MiB\" } ] }",
        "    { id = gpu, node = n1" + deviceKeys + ", bars = [",
        "        { base = \"0x10000000\", size = \"4KiB\" }, { base = \"0x10100000\", size = \"1MiB\" } ] }",
        "  ]",
        "  links = [ { a = rc, b = sw.up }, { a = sw.down, b = gpu } ]",
        "}");
  }

  static String problems(String text) {
    return assertThrows(TopologyException.class, () -> TopologyLoader.parse(text, "bad.conf")).getMessage();
  }

  @Test
  void shouldMarkTheEndpointAGpuWhenTheKeySaysGpu() throws TopologyException {
    Topology t = TopologyLoader.parse(rack(", device = gpu", ""), "gpu.conf");
    assertEquals(DeviceKind.GPU, t.endpoint("gpu").orElseThrow().device());
    assertEquals(DeviceKind.MEMORY, t.endpoint("rc").orElseThrow().device());
  }

  @Test
  void shouldMarkTheEndpointADiskAndWriteItBackWhenTheKeySaysDisk() throws TopologyException {
    Topology t = TopologyLoader.parse(rack(", device = disk", ""), "disk.conf");
    assertEquals(DeviceKind.DISK, t.endpoint("gpu").orElseThrow().device());
    String text = TopologyWriter.write(t);
    assertTrue(text.contains("device = \"disk\""), text);
    assertEquals(t, TopologyLoader.parse(text, "disk.conf"));
  }

  @Test
  void shouldBeMemoryWhenTheKeyIsAbsentOrSaysMemory() throws TopologyException {
    assertEquals(DeviceKind.MEMORY, TopologyLoader.parse(rack("", ""), "m.conf").endpoint("gpu").orElseThrow().device());
    assertEquals(DeviceKind.MEMORY,
        TopologyLoader.parse(rack(", device = memory", ""), "m.conf").endpoint("gpu").orElseThrow().device());
  }

  @Test
  void shouldNameTheValueAndTheLineWhenTheDeviceIsUnknown() {
    String m = problems(rack(", device = tpu", ""));
    assertTrue(m.contains("bad.conf:10: rack.endpoints[1].device: device = \"tpu\" is not one of memory, gpu, disk"), m);
  }

  @Test
  void shouldRefuseADeviceOnARoot() {
    String m = problems(rack("", ", device = gpu"));
    assertTrue(m.contains("bad.conf:9: rack.endpoints[0].device: device = \"gpu\" on a root"), m);
  }

  @Test
  void shouldWriteTheDeviceBackWhenItIsNotMemory() throws TopologyException {
    Topology original = TopologyLoader.parse(rack(", device = gpu", ""), "gpu.conf");

    String text = TopologyWriter.write(original);

    assertTrue(text.contains("device = \"gpu\""), text);
    assertEquals(original, TopologyLoader.parse(text, "gpu.conf"));
    assertEquals(1, text.split("device = ", -1).length - 1, "memory, the default, is not written: " + text);
  }
}

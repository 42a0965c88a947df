package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TopologyWriterTest {

  @Test
  void shouldLoadBackEqualWhenEveryBundledTopologyIsWritten() throws TopologyException {
    for (String name : TopologyLoader.BUNDLED) {
      Topology original = TopologyLoader.load(name);

      String text = TopologyWriter.write(original);
      Topology again = TopologyLoader.parse(text, original.source());

      assertEquals(original, again, name + ":\n" + text);
    }
  }

  @Test
  void shouldKeepTheHeaderAsCommentsWhenGivenOne() throws TopologyException {
    Topology original = TopologyLoader.load("fig1");

    String text = TopologyWriter.write(original, "first line\n\nthird");

    assertTrue(text.startsWith("# first line\n#\n# third\n\nrack {\n"), text);
    assertEquals(original, TopologyLoader.parse(text, original.source()));
  }

  @Test
  void shouldWriteALimitWhenAWindowSpansTheWholeAddressSpace() throws TopologyException {
    String file = String.join("\n",
        "rack {",
        "  name = wide",
        "  nodes = [ { name = a, host = h, port = 1 } ]",
        "  switches = [ { id = sw, node = a, ports = [",
        "    { name = n, number = 1, role = ntb,",
        "      link-bars = [ { base = \"0x0\", limit = \"0xFFFFFFFFFFFFFFFF\", translate-to = \"0x0\" } ] } ] } ]",
        "}");
    Topology original = TopologyLoader.parse(file, "wide.conf");

    String text = TopologyWriter.write(original);

    assertTrue(text.contains("limit = \"0xFFFF_FFFF_FFFF_FFFF\""), text);
    assertEquals(original, TopologyLoader.parse(text, "wide.conf"));
  }
}

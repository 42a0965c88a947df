package io.rackfabric.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rack route}, through the {@code rack} dispatcher. */
class RouteRackCommandTest {

  @TempDir Path dir;

  private final RackRun rack = new RackRun();

  @Test
  void shouldExitZeroAndPrintHopsWhenDelivered() {
    int code = route("--topology", "fig1", "--from", "rc", "--addr", "0xB0040");
    assertEquals(0, code, rack.err());
    assertTrue(rack.out().contains("sw1  up -> right"), rack.out());
    assertTrue(rack.out().contains("delivered: ep2 BAR1 [0xB0000..0xBFFFF] at 0xB0040"), rack.out());
    assertEquals("", rack.err());
  }

  @Test
  void shouldExitOneWhenTheRequestIsRefused() {
    int code = route("--topology=fig1", "--from=srv2", "--addr=0x20000", "--read");
    assertEquals(1, code, rack.err());
    assertTrue(rack.out().contains("Unsupported Request at sw2"), rack.out());
  }

  @Test
  void shouldExitTwoWithTheKnownComponentsWhenTheComponentIsUnknown() {
    int code = route("--topology", "fig1", "--from", "ep9", "--addr", "0xB0040");
    assertEquals(2, code);
    assertEquals("rack route: --from: no component 'ep9' in fig1.conf (components: sw1, sw2, rc,"
        + " ep1, ep2, srv2)\n", rack.err());
    assertEquals("", rack.out());
  }

  @Test
  void shouldExitTwoWhenStartingFromASwitchOrAMissingPort() {
    assertEquals(2, route("--topology", "fig1", "--from", "sw1", "--addr", "0x0"));
    assertTrue(rack.err().contains("'sw1' is a switch: start from an endpoint or from one of its ports, e.g. sw1.up"), rack.err());
    rack.resetErr();
    assertEquals(2, route("--topology", "fig1", "--from", "sw1.nope", "--addr", "0x0"));
    assertTrue(rack.err().contains("switch sw1 has no port 'nope' (ports: up, left, right)"), rack.err());
  }

  @Test
  void shouldExitTwoWhenTheAddressIsOutside64Bits() {
    int code = route("--topology", "fig1", "--from", "rc", "--addr", "0x1_0000_0000_0000_0000");
    assertEquals(2, code);
    assertTrue(rack.err().startsWith("rack route: Invalid value for option '--addr': '0x1_0000_0000_0000_0000' is"
        + " outside 64 bits"), rack.err());
  }

  @Test
  void shouldExitTwoWhenTheAddressIsNotANumber() {
    assertEquals(2, route("--topology", "fig1", "--from", "rc", "--addr", "banana"));
    assertTrue(rack.err().contains("'banana' is not an address or size"), rack.err());
  }

  @Test
  void shouldExitTwoWhenAFlagIsUnknown() {
    int code = route("--topology", "fig1", "--from", "rc", "--addr", "0x0", "--fast");
    assertEquals(2, code);
    assertTrue(rack.err().startsWith("rack route: Unknown option: '--fast'"), rack.err());
  }

  @Test
  void shouldExitTwoWhenFlagsAreMissingOrRepeated() {
    assertEquals(2, route("--topology", "fig1", "--from", "rc"));
    assertTrue(rack.err().startsWith("rack route: Missing required option: '--addr=ADDRESS'"), rack.err());
    rack.resetErr();
    assertEquals(2, route("--topology", "fig1", "--from", "rc", "--addr"));
    assertTrue(rack.err().startsWith("rack route: Missing required parameter for option '--addr' (ADDRESS)"), rack.err());
    rack.resetErr();
    assertEquals(2, route("--topology", "fig1", "--from", "rc", "--from", "ep1", "--addr", "0x0"));
    assertTrue(rack.err().startsWith("rack route: option '--from' (COMPONENT) should be specified only once"), rack.err());
    rack.resetErr();
    assertEquals(2, route("fig1"));
    assertTrue(rack.err().startsWith("rack route: Missing required options: '--topology=FILE|NAME', '--from=COMPONENT',"
        + " '--addr=ADDRESS'"), rack.err());
    rack.resetErr();
    assertEquals(2, route("--topology", "fig1", "--from", "rc", "--addr", "0x0", "fig1"));
    assertTrue(rack.err().startsWith("rack route: Unmatched argument at index 7: 'fig1'"), rack.err());
  }

  @Test
  void shouldExitTwoWithTheFileProblemsWhenTheTopologyIsBad() throws IOException {
    Path bad = dir.resolve("bad.conf");
    Files.write(bad, List.of("rack {", "  name = x", "  nodez = []", "}"));
    assertEquals(2, route("--topology", bad.toString(), "--from", "rc", "--addr", "0x0"));
    assertTrue(rack.err().contains(bad + ":3: rack.nodez: unknown key (did you mean 'nodes'?)"), rack.err());
    assertTrue(rack.err().contains(bad + ":1: rack.nodes: missing (required)"), rack.err());
  }

  @Test
  void shouldPrintUsageWhenAskedForHelp() {
    assertEquals(0, route("--help"));
    assertTrue(rack.out().startsWith("Usage: rack route"), rack.out());
    for (String flag : List.of("--topology", "--from", "--addr", "--read")) {
      assertTrue(rack.out().contains(flag), flag + " in\n" + rack.out());
    }
  }

  private int route(String... args) {
    return rack.run("route", args);
  }

}

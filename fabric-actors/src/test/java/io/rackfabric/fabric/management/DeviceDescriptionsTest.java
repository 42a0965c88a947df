package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeviceDescriptionsTest {

  private static final BridgeRegisters BRIDGE = new BridgeRegisters(0, 1, 1, null, null);
  private static final LinkParameters GEN3_X8 = new LinkParameters(3, 8, 5);

  @Test
  void shouldNumberPortsUpToTheHighestAndMarkTheRestUnusedWhenAChipIsDescribed() {
    List<PortConfig> ports = List.of(new PortConfig("up", 0, PortRole.UPSTREAM, 1, BRIDGE, null),
        new PortConfig("ntb", 4, PortRole.NTB, 2, null, new NtbConfig(0x100, List.of(), List.of())));
    DeviceDescription d = DeviceDescriptions.switchChip("tor", 5, 256, ports, Map.of(4, GEN3_X8), DataLinkState.DL_PROTECTED);
    assertEquals(5, d.ports().size());
    assertEquals(PortKind.UPSTREAM, d.ports().get(0).kind());
    assertEquals(DataLinkState.DL_INACTIVE, d.ports().get(0).state(), "no link on it");
    assertEquals(PortKind.UNUSED, d.ports().get(2).kind());
    PortDescription ntb = d.ports().get(4);
    assertEquals(PortKind.NTB, ntb.kind());
    assertEquals(2, ntb.virtualSwitch());
    assertEquals(DataLinkState.DL_PROTECTED, ntb.state());
    assertEquals(GEN3_X8, ntb.link());
  }

  @Test
  void shouldRefuseNamingThePortWhenALinkIsOnANumberTheChipLacks() {
    List<PortConfig> ports = List.of(new PortConfig("up", 0, PortRole.UPSTREAM, 1, BRIDGE, null));
    assertEquals("tor: a link on port number=3, which the chip does not have", assertThrows(IllegalArgumentException.class,
        () -> DeviceDescriptions.switchChip("tor", 5, 256, ports, Map.of(3, GEN3_X8), DataLinkState.DL_ACTIVE))
        .getMessage());
  }

  @Test
  void shouldGiveAnEndpointOnePortInItsLinksStateWhenDescribed() {
    DeviceDescription ep = DeviceDescriptions.endpoint("mmh", 9, 512, GEN3_X8, DataLinkState.DL_ACTIVE, 0);
    assertEquals(DeviceType.ENDPOINT, ep.type());
    assertEquals(DataLinkState.DL_ACTIVE, ep.ports().get(0).state());
    assertEquals(0, ep.candidatePriority());
    assertEquals(DataLinkState.DL_INACTIVE,
        DeviceDescriptions.endpoint("lone", 10, 256, null, DataLinkState.DL_ACTIVE, -1).ports().get(0).state());
  }
}

package io.rackfabric.cluster.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.management.DeviceDescription;
import io.rackfabric.fabric.management.DeviceDescriptions;
import io.rackfabric.fabric.management.PacketKind;
import io.rackfabric.fabric.management.StructuralFabric;
import io.rackfabric.fabric.management.StructuralFabric.PortRef;
import io.rackfabric.fabric.settings.FabricSettings;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyDiscoveryTest {

  private static final FabricSettings SETTINGS = FabricSettings.create(ConfigFactory.load());

  private static TopologyFabric ladon(FabricSettings settings) throws Exception {
    return TopologyFabric.of(TopologyLoader.load("ladon-testbed"), settings);
  }

  @Test
  void shouldMatchTheTopologyFileWhenLadonTestbedIsDiscoveredFromTheMmh() throws Exception {
    TopologyFabric expected = ladon(SETTINGS);
    StructuralFabric.Discovery d = expected.structural().discover("mmh", 256, p -> { });
    assertEquals(List.of(), DiscoveryCheck.differences(expected, d.database()));
    Topology t = expected.topology();
    assertEquals(t.switches().size() + t.endpoints().size(), d.database().devices().size());
    assertEquals(t.links().size(), d.database().links().size());
    assertEquals(d.packets().count(PacketKind.PI4_READ_REQUEST), d.packets().count(PacketKind.PI4_COMPLETION_WITH_DATA));
  }

  @Test
  void shouldFindEveryPortDlProtectedWhenLinksWaitForTheFabricManager() throws Exception {
    FabricSettings managed = FabricSettings.create(
        ConfigFactory.parseString("rackfabric.fabric.auto-activate = off").withFallback(ConfigFactory.load()));
    TopologyFabric expected = ladon(managed);
    StructuralFabric.Discovery d = expected.structural().discover("ch2", 1, p -> { });
    assertEquals(List.of(), DiscoveryCheck.differences(expected, d.database()));
    long serial = expected.serialOf("tor");
    assertEquals(DataLinkState.DL_PROTECTED, d.database().ports(serial).get(3).state());
    assertEquals(List.of(DataLinkState.DL_ACTIVE), List.of(ladon(SETTINGS).structural().discover("mmh", 8, p -> { })
        .database().ports(serial).get(3).state()));
  }

  @Test
  void shouldReportADeviceTheTopologyLacksWhenTheFabricHasOne() throws Exception {
    TopologyFabric expected = ladon(SETTINGS);
    // the NIC's slot holds another card
    List<DeviceDescription> devices = new ArrayList<>(expected.descriptions());
    devices.removeIf(dev -> dev.id().equals("nic"));
    devices.add(DeviceDescriptions.endpoint("rogue", 0x5EC0_0001L, SETTINGS.maxPayload(),
        expected.description("nic").orElseThrow().ports().get(0).link(), DataLinkState.DL_ACTIVE, -1));
    List<List<PortRef>> links = new ArrayList<>(expected.links().stream()
        .map(l -> l.stream().map(e -> e.device().equals("nic") ? new PortRef("rogue", 0) : e).toList()).toList());
    StructuralFabric.Discovery d = new StructuralFabric(devices, links).discover("mmh", 64, p -> { });
    List<String> diff = DiscoveryCheck.differences(expected, d.database());
    assertTrue(diff.contains("a device the topology does not have: serial 000000005EC00001, a ENDPOINT of 1 ports,"
        + " at route [0, 2]"), diff::toString);
    assertTrue(diff.contains("nic: not found"), diff::toString);
    assertTrue(diff.contains("link tor.nic -- nic: not found") || diff.contains("link nic -- tor.nic: not found"),
        diff::toString);
    assertTrue(diff.stream().anyMatch(l -> l.endsWith("found, the topology has none")), diff::toString);
    assertEquals(4, diff.size(), diff::toString);
  }

  @Test
  void shouldReportTheLinkAndItsPortsWhenALinkIsDownInTheFabric() throws Exception {
    TopologyFabric expected = ladon(SETTINGS);
    StructuralFabric fabric = expected.structural();
    // tor.to-sec (port 4) -- nt-sec.up (port 0) is down; nt-sec is still reached through the CHs' secondaries
    fabric.device("tor").setPortState(4, DataLinkState.DL_INACTIVE, DataLinkState.DL_INACTIVE);
    fabric.device("nt-sec").setPortState(0, DataLinkState.DL_INACTIVE, DataLinkState.DL_INACTIVE);
    StructuralFabric.Discovery d = fabric.discover("mmh", 64, p -> { });
    List<String> diff = DiscoveryCheck.differences(expected, d.database());
    assertTrue(diff.contains("tor.to-sec: state DL_INACTIVE, the topology says DL_ACTIVE"), diff::toString);
    assertTrue(diff.contains("nt-sec.up: state DL_INACTIVE, the topology says DL_ACTIVE"), diff::toString);
    assertTrue(diff.stream().anyMatch(l -> l.startsWith("link ") && l.contains("tor.to-sec") && l.endsWith("not found")),
        diff::toString);
    assertEquals(expected.descriptions().size(), d.database().devices().size(), "every device still reached");
  }

  @Test
  void shouldNameTheComponentWhenASerialIsAskedForAnUnknownId() throws Exception {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ladon(SETTINGS).serialOf("nope")).getMessage()
        .startsWith("no component id=nope in "));
  }
}

package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.LadonRackGenerator.Placement;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The optional top-level {@code control-plane} section: the MMH/BMH pair. Bad files are the
 * bundled ladon-testbed with one edit.
 */
class ControlPlaneSectionTest {

  private static final String PAIR = "control-plane { master = mmh, backup = bmh }";

  @Test
  void shouldNameThePairAndThePortsATakeOverMovesWhenTheTestbedIsLoaded() throws Exception {
    ControlPlaneSpec pair = TopologyLoader.load("ladon-testbed").controlPlane();
    assertEquals("mmh", pair.master());
    assertEquals("bmh", pair.backup());
    assertEquals("tor", pair.fencingSwitch());
    assertEquals("mmh", pair.masterPort());
    assertEquals(List.of(1, 2, 3, 4), pair.fencedPorts(), "bmh, nic, to-pri, to-sec: all of tor but the MMH's port");
    assertTrue(TopologyCheck.summary(TopologyLoader.load("ladon-testbed"))
        .endsWith("\ncontrol plane\n  master mmh (VS1 on tor.mmh), backup bmh; a take-over moves tor's ports"
            + " [1, 2, 3, 4] to VS2\n"));
  }

  @Test
  void shouldHaveNoPairWhenTheSectionIsAbsent() throws Exception {
    assertNull(TopologyLoader.load("demo").controlPlane());
  }

  @Test
  void shouldGiveGeneratedLadonRacksTheTestbedsPairAndWriteItBack() throws Exception {
    Topology rack = LadonRackGenerator.generate(GlobalMemoryLayout.paper(4), Placement.SINGLE_NODE);
    assertEquals(TopologyLoader.load("ladon-testbed").controlPlane().fencedPorts(), rack.controlPlane().fencedPorts());
    Topology back = TopologyLoader.parse(TopologyWriter.write(rack), "generated.conf");
    assertEquals(rack.controlPlane(), back.controlPlane());
  }

  @Test
  void shouldRefuseABackupThatIsNotTheRootOfVirtualSwitch2() throws Exception {
    String text = GlobalMemorySectionTest.testbed().replace(PAIR, "control-plane { master = mmh, backup = ch2 }");
    assertTrue(problems(text).contains("control-plane.backup: 'ch2' is linked to ch2-rp.up (upstream, virtual-switch = 1);"
        + " the backup must be the root of virtual switch 2"), problems(text));
  }

  @Test
  void shouldRefuseAPairThatIsNotTwoRootsOfTheRack() throws Exception {
    String testbed = GlobalMemorySectionTest.testbed();
    assertTrue(problems(testbed.replace(PAIR, "control-plane { master = mmh, backup = mmh }"))
        .contains("control-plane.backup: 'mmh' is also the master"));
    assertTrue(problems(testbed.replace(PAIR, "control-plane { master = mmh, backup = nope }"))
        .contains("control-plane.backup: 'nope' names no endpoint"));
    assertTrue(problems(testbed.replace(PAIR, "control-plane { master = mmh, backup = nic }"))
        .contains("control-plane.backup: 'nic' is not a root"));
    assertTrue(problems(testbed.replace(PAIR, "control-plane { master = bmh, backup = mmh }"))
        .contains("control-plane.master: 'bmh' is linked to tor.bmh (upstream, virtual-switch = 2); the master must"
            + " be the root of virtual switch 1"));
    assertTrue(problems(testbed.replace(PAIR, "control-plane { master = mmh }"))
        .contains("control-plane.backup"));
    assertTrue(problems(testbed.replace(PAIR, "control-plane { master = mmh, backup = bmh, spare = ch1 }"))
        .contains("control-plane.spare"));
  }

  @Test
  void shouldRefuseAMasterThatIsNotTheManagementHostOfTheGlobalMemory() throws Exception {
    // ch1 is a root of VS1 on its own chip: the pair then spans two chips, and it is not the MH.
    String text = GlobalMemorySectionTest.testbed().replace(PAIR, "control-plane { master = ch1, backup = bmh }");
    String p = problems(text);
    assertTrue(p.contains("control-plane.backup: 'bmh' is linked to switch tor, the master 'ch1' to ch1-rp"), p);
  }

  private static String problems(String text) {
    TopologyException e = assertThrows(TopologyException.class, () -> TopologyLoader.parse(text, "bad.conf"));
    return e.getMessage();
  }
}

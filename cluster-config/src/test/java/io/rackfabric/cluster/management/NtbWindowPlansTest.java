package io.rackfabric.cluster.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.management.NtbWindows;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NtbWindowPlansTest {

  private static final FabricSettings SETTINGS = FabricSettings.create(ConfigFactory.load());

  @TempDir Path dir;

  private static NtbWindows.Plan plan(Topology t) {
    return NtbWindowPlans.of(t, TopologyFabric.of(t, SETTINGS));
  }

  @Test
  void shouldPlanEveryComputeHostsPortOfBothPlanesAsTheTestbedFileHasThemWhenItIsLadonTestbed() throws Exception {
    Topology t = TopologyLoader.load("ladon-testbed");
    NtbWindows.Plan p = plan(t);
    assertEquals(List.of("nt-pri.ch1", "nt-pri.ch2", "nt-sec.ch1", "nt-sec.ch2"),
        p.ports().stream().map(NtbWindows::name).toList());
    for (NtbWindows w : p.ports()) {
      assertEquals(2, w.linkBars().size(), w.name() + ": the CH's range and the multicast page");
      assertEquals(1, w.virtualBars().size(), w.name());
      assertEquals(TopologyFabric.of(t, SETTINGS).serialOf(w.name().substring(0, w.name().indexOf('.'))), w.chipSerial());
    }
    assertEquals(List.of(), p.differences());
  }

  @Test
  void shouldPlanWhatTheGeneratorProgramsWhenTheRackIsGenerated() {
    for (int chs : new int[] {3, 48}) {
      Topology t = LadonRackGenerator.generate(GlobalMemoryLayout.create(32L << 30, chs, 2L << 40),
          LadonRackGenerator.Placement.SINGLE_NODE);
      NtbWindows.Plan p = plan(t);
      assertEquals(2 * chs, p.ports().size(), chs + " CHs, two planes");
      assertEquals(List.of(), p.differences(), "one home for the windows: " + chs + " CHs");
    }
  }

  @Test
  void shouldNameThePortAndBothWindowListsWhenTheFileHasAWindowTheLayoutDoesNot() throws Exception {
    String text = new String(TopologyLoader.class.getResourceAsStream("/topologies/ladon-testbed.conf").readAllBytes(),
        java.nio.charset.StandardCharsets.UTF_8);
    String anchor = "{ base = \"96GiB\", size = \"4KiB\", translate-to = \"0x1_0000\" } ]  # multicast page -> CH1's control page";
    assertTrue(text.contains(anchor));
    Path file = dir.resolve("stale.conf");
    Files.writeString(file, text.replace(anchor, "{ base = \"96GiB\", size = \"4KiB\", translate-to = \"0x1_0000\" }\n"
        + "{ base = \"0x18_0001_0000\", size = \"4KiB\", translate-to = \"0x2_0000\" } ]"));
    NtbWindows.Plan p = plan(TopologyLoader.load(file));
    assertEquals(1, p.differences().size(), p.differences().toString());
    String d = p.differences().get(0);
    assertTrue(d.startsWith("nt-pri.ch1 link-bars: the file has ") && d.contains("0x1800010000"), d);
    assertEquals(2, p.ports().get(0).linkBars().size(), "the plan keeps the layout's two");
  }

  @Test
  void shouldPlanNothingWhenTheRackHasNoGlobalMemory() throws Exception {
    assertTrue(plan(TopologyLoader.load("demo")).isEmpty());
  }
}

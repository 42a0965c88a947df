package io.rackfabric.cluster.lending;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.DeviceKind;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoanPlannerTest {

  private static final long GIB = 1L << 30;

  private static Topology pair() throws Exception {
    return TopologyLoader.load(Path.of(LoanPlannerTest.class.getResource("/lending/pair.conf").toURI()));
  }

  @Test
  void shouldMapEachBarAndTheDmaWindowThroughTheNtbWhenTheTopologyCarriesTheLoan() throws Exception {
    LoanPlanner planner = new LoanPlanner(pair());
    assertEquals(List.of("gpu"), planner.devices().stream().map(e -> e.id()).toList());
    assertEquals("lender", planner.lenderOf("gpu").orElseThrow());
    LoanPlanner.LoanPlan p = planner.plan("gpu", "borrower");
    assertEquals(DeviceKind.GPU, p.kind());
    assertEquals("lender", p.lender());
    assertEquals(80 * GIB, p.bars().get(0).borrowerSide());
    assertEquals(0xC000_0000L, p.bars().get(0).lenderSide().base());
    assertEquals(81 * GIB, p.bars().get(1).borrowerSide());
    assertEquals(new LoanPlanner.DmaWindow(48 * GIB, 256L << 20, 8 * GIB), p.window());
    String text = LoanPlanner.text(p);
    assertTrue(text.contains("BAR1 [0x800000000..0x80FFFFFFF] at 0x1440000000 for borrower"), text);
    assertTrue(text.contains("DMA window 0xC00000000 +256MiB -> borrower 0x200000000"), text);
  }

  @Test
  void shouldPlanEveryGpuToTheBorrowerOnThePapersSetUps() throws Exception {
    LoanPlanner b2b = new LoanPlanner(TopologyLoader.load("lending-b2b"));
    assertEquals("lender", b2b.plan("gpu", "borrower").lender());
    LoanPlanner.LoanPlan disk = b2b.plan("disk", "borrower");
    assertEquals("lender", disk.lender());
    assertEquals(1, disk.bars().size(), "the disk's one BAR: its registers");
    assertEquals(82 * GIB, disk.bars().get(0).borrowerSide());
    assertEquals(new LoanPlanner.DmaWindow(48 * GIB, 256L << 20, 8 * GIB), disk.window());
    LoanPlanner threeWay = new LoanPlanner(TopologyLoader.load("lending-3way"));
    for (String gpu : List.of("gpu-a1", "gpu-a2", "gpu-b")) {
      LoanPlanner.LoanPlan p = threeWay.plan(gpu, "borrower");
      assertEquals(gpu.startsWith("gpu-a") ? "lender-a" : "lender-b", p.lender());
      assertEquals(2, p.bars().size());
    }
    // Lender B's GPU reaches no window of Lender A's RAM: the set-up lends toward the borrower only.
    assertThrows(LoanPlanException.class, () -> threeWay.plan("gpu-b", "lender-a"));
  }

  @Test
  void shouldChainBothNtbCrossingsWhenTheBorrowerIsAnotherComputeHostOfALadonRack() throws Exception {
    LoanPlanner ladon = new LoanPlanner(TopologyLoader.load("ladon-lending"));
    assertEquals("ch1", ladon.lenderOf("gpu1").orElseThrow());
    LoanPlanner.LoanPlan p = ladon.plan("gpu1", "ch2");
    // ch2 reaches CH1's local subspace at 64 GiB (PMS1 through its own NTB port, then CH1's).
    assertEquals(64 * GIB + 8 * GIB, p.bars().get(0).borrowerSide());
    assertEquals(64 * GIB + 9 * GIB, p.bars().get(1).borrowerSide());
    // gpu1 reaches ch2's 8 GiB of RAM at 96 GiB, CH2's subspace in PMS1 as CH1 sees it; the
    // primary plane's chain comes before the secondary's (its addresses are lower).
    assertEquals(new LoanPlanner.DmaWindow(96 * GIB, 8 * GIB, 0), p.window());
    // VS2 is empty until a take-over: the backup reaches nothing of CH1.
    assertThrows(LoanPlanException.class, () -> ladon.plan("gpu1", "bmh"));
  }

  @Test
  void shouldRefuseLoansTheTopologyCannotCarryNamingWhatIsMissing() throws Exception {
    LoanPlanner planner = new LoanPlanner(pair());
    assertContains(assertThrows(LoanPlanException.class, () -> planner.plan("gpu", "lender")).getMessage(),
        "borrower=lender is device=gpu's own host");
    assertContains(assertThrows(LoanPlanException.class, () -> planner.plan("mem", "borrower")).getMessage(),
        "device=mem is plain memory");
    assertContains(assertThrows(LoanPlanException.class, () -> planner.plan("nic", "borrower")).getMessage(),
        "device=nic is not an endpoint");
    assertContains(assertThrows(LoanPlanException.class, () -> planner.plan("gpu", "gpu")).getMessage(),
        "borrower=gpu is not a root");
  }

  @Test
  void shouldRefuseABarNoNtbWindowReaches() throws Exception {
    // The same pair with the GPU's BAR1 window left out of the NTB's virtual side.
    String text = java.nio.file.Files.readString(Path.of(LoanPlannerTest.class.getResource("/lending/pair.conf").toURI()))
        .replace("{ base = \"81GiB\", size = \"256MiB\", translate-to = \"32GiB\" } ]", "]")
        .replace("{ base = \"80GiB\", size = \"16KiB\", translate-to = \"0xC000_0000\" }",
            "{ base = \"80GiB\", size = \"16KiB\", translate-to = \"0xC000_0000\" } ");
    Path f = java.nio.file.Files.createTempFile("pair-no-bar1", ".conf");
    try {
      java.nio.file.Files.writeString(f, text);
      LoanPlanner planner = new LoanPlanner(TopologyLoader.load(f));
      assertContains(assertThrows(LoanPlanException.class, () -> planner.plan("gpu", "borrower")).getMessage(),
          "borrower=borrower reaches BAR1 of device=gpu");
    } finally {
      java.nio.file.Files.deleteIfExists(f);
    }
  }

  private static void assertContains(String text, String part) {
    assertTrue(text.contains(part), "'" + text + "' does not contain '" + part + "'");
  }
}

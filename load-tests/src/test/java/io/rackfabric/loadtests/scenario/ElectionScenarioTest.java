package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.FlowControlScenarioTest.fig;
import static io.rackfabric.loadtests.scenario.FlowControlScenarioTest.figures;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fabric-manager election over the fabric (AS-FM section 4) in {@code ladon-testbed}: the MMH
 * and the BMH are the candidates; their claims are flooded switch to switch in model time, and
 * whichever claims first, and however far apart, the MMH comes out primary and the BMH secondary,
 * and only the primary discovers.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ElectionScenarioTest {

  @TempDir Path dir;

  private Map<String, Double> run(String name, String claimAtOf) throws Exception {
    Path file = dir.resolve(name + ".conf");
    Files.writeString(file, "scenario { name = " + name + ", topology = ladon-testbed, mode = single-jvm, seed = 1,"
        + " run { duration = 40us, wall-limit = 2m }, invariants = [ fabric-discovered ], figures = [ fabric-manager ],"
        + " settings { rackfabric.fabric.management.enabled = on, rackfabric.fabric.management.discover-at = 10us,"
        + " rackfabric.fabric.management.election.claim-at-of = \"" + claimAtOf + "\" } }\n");
    return figures(FabricManagerScenarioTest.run(file, dir));
  }

  private static void assertMmhPrimaryBmhSecondary(Map<String, Double> m, String how) {
    assertEquals(2, fig(m, "election.candidates"), how);
    assertEquals(1, fig(m, "election.mmh.primary"), how);
    assertEquals(1, fig(m, "election.bmh.secondary"), how);
    assertEquals(0, fig(m, "election.mmh.secondary") + fig(m, "election.bmh.primary"), how);
    assertEquals(1, fig(m, "election.agreed"), how);
    assertTrue(fig(m, "election.claims_sent") > 0, how);
    assertTrue(fig(m, "election.ns") > 0, how);
    assertEquals(10_000, fig(m, "fm.discovery_started_ns"), how + ": the primary discovers");
    assertEquals(0, fig(m, "fm.differences"), how);
  }

  @Test
  void shouldElectTheSamePrimaryAndSecondaryWhicheverCandidateClaimsFirst() throws Exception {
    Map<String, Double> together = run("together", "");
    assertMmhPrimaryBmhSecondary(together, "both at 1us");
    assertEquals(1_000, fig(together, "election.mmh.claimed_ns"));

    Map<String, Double> bmhFirst = run("bmh-first", "mmh=4us");
    assertMmhPrimaryBmhSecondary(bmhFirst, "bmh at 1us, mmh at 4us");
    assertEquals(4_000, fig(bmhFirst, "election.mmh.claimed_ns"));
    assertTrue(fig(bmhFirst, "election.bmh.knew_ns") > 4_000, "the bmh learns it is second when the mmh's claim arrives");

    Map<String, Double> mmhFirst = run("mmh-first", "bmh=3500ns");
    assertMmhPrimaryBmhSecondary(mmhFirst, "mmh at 1us, bmh at 3.5us");
    // two candidates: both claims are always among the best two, so each device passes each on once
    // (when it first sees it), whatever the order: the flood costs the same
    assertEquals(fig(together, "election.claims_sent"), fig(bmhFirst, "election.claims_sent"));
    assertEquals(fig(together, "election.claims_sent"), fig(mmhFirst, "election.claims_sent"));

    Map<String, Double> again = run("bmh-first-again", "mmh=4us");
    for (String k : bmhFirst.keySet()) {
      if (k.startsWith("election.") || k.startsWith("fm.")) {
        assertEquals(bmhFirst.get(k), again.get(k), k + ": same run, same figures");
      }
    }
  }
}

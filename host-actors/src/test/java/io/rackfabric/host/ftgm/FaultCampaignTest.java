package io.rackfabric.host.ftgm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.nic.FaultCategory;
import io.rackfabric.host.nic.McpMode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FaultCampaignTest {

  static final FtgmSettings S = FtgmScenarioTest.SETTINGS.withTraffic(2, 10, 100_000);
  static final FaultSpec SPEC = FaultSpec.create("nic",
      Map.of("interface-hang", 0.4, "messages-corrupted", 0.2, "mcp-restart", 0.1), 12, 77, Set.of("nic"));

  @Test
  void shouldGiveTheSameOutcomeTableWhenRunTwiceWithTheSameSeed() {
    OutcomeTable a = FaultCampaign.run(S, FtgmScenarioTest.NIC, McpMode.FTGM, SPEC);
    OutcomeTable b = FaultCampaign.run(S, FtgmScenarioTest.NIC, McpMode.FTGM, SPEC);
    assertEquals(a, b);
    assertEquals(a.render(), b.render());
    assertEquals(12, a.faults());
  }

  @Test
  void shouldDetectAndRecoverEveryHangWithoutLossWhenUnderFtgm() {
    OutcomeTable t = FaultCampaign.run(S, FtgmScenarioTest.NIC, McpMode.FTGM, SPEC);
    assertTrue(t.hangs() > 0, t.render());
    assertEquals(t.hangs(), t.detected(), t.render());
    assertEquals(t.hangs(), t.recovered(), t.render());
    assertEquals(List.of(), t.unrecoveredSeeds());
    assertEquals(0, t.lost() + t.duplicated() + t.outOfOrder(), t.render());
  }

  @Test
  void shouldReplayOneFaultFromItsSeedWhenAskedAlone() {
    OutcomeTable t = FaultCampaign.run(S, FtgmScenarioTest.NIC, McpMode.GM, SPEC);
    FaultOutcome third = t.outcomes().get(2);
    assertEquals(third, FaultCampaign.replay(S, FtgmScenarioTest.NIC, McpMode.GM, SPEC, 2, third.seed()));
    assertEquals(t.outcomes().stream().filter(o -> o.category() == FaultCategory.INTERFACE_HANG).count(),
        t.rows().get(FaultCategory.INTERFACE_HANG.ordinal()).injections());
  }
}

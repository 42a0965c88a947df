package io.rackfabric.loadtests.scenario.ftgm;

import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.language.FtgmCampaign;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioException;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.host.nic.FaultCategory;
import io.rackfabric.host.nic.McpMode;
import io.rackfabric.loadtests.scenario.ScenarioFiles;
import io.rackfabric.loadtests.scenario.ScenarioKinds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad ftgm-campaign sections, each rejected before anything runs with the file, the line, the key
 * and the reason. The base is valid; each test changes one line of it.
 */
class FtgmCampaignLoaderErrorsTest {

  private static final List<String> BASE = List.of(
      "scenario {",                                                                              // 1
      "  name = c",                                                                              // 2
      "  topology = ladon-testbed",                                                              // 3
      "  seed = 11",                                                                             // 4
      "  ftgm-campaign {",                                                                       // 5
      "    nic = nic",                                                                           // 6
      "    faults = 20",                                                                         // 7
      "    modes = [gm, ftgm]",                                                                  // 8
      "    rates {",                                                                             // 9
      "      interface-hang = 0.3",                                                              // 10
      "      messages-corrupted = 0.2",                                                          // 11
      "    }",                                                                                   // 12
      "    recovery-ports = [1, 2]",                                                             // 13
      "  }",                                                                                     // 14
      "  invariants = [ every-hang-recovered, no-message-lost ]",                                // 15
      "}");                                                                                      // 16

  @TempDir Path dir;

  @Test
  void shouldReadTheCampaignWithTheScenariosSeedWhenTheSectionIsValid() throws Exception {
    Scenario s = ScenarioLoader.load(files().write("good.conf", BASE), ScenarioKinds.standard(), ScenarioOptions.NONE);
    FtgmCampaign c = s.ftgmCampaign();
    assertTrue(s.inProcess());
    assertEquals("nic", c.spec().nic());
    assertEquals(20, c.spec().faults());
    assertEquals(11, c.spec().seed());
    assertEquals(List.of(McpMode.GM, McpMode.FTGM), c.modes());
    assertEquals(FaultCategory.INTERFACE_HANG, c.spec().rates().get(0).category());
    assertEquals(0.3, c.spec().rates().get(0).rate());
    assertEquals(List.of(1, 2), c.recoveryPorts());
    assertEquals(List.of(FtgmCampaign.FIGURES), s.figures(), "a campaign's figures unless told otherwise");
    assertEquals(dir.resolve("good.conf") + ":5", c.where());
    Scenario seeded = ScenarioLoader.load(files().write("good.conf", BASE), ScenarioKinds.standard(),
        new ScenarioOptions(null, 99L, null));
    assertEquals(99, seeded.ftgmCampaign().spec().seed(), "--seed reaches the campaign");
  }

  @Test
  void shouldRejectANicTheTopologyDoesNotHave() throws Exception {
    assertContains(files().problems(files().edit(6, "    nic = nic2")),
        "bad.conf:6: scenario.ftgm-campaign.nic: nic=nic2 is not a NIC of topology ladon-testbed (NICs: nic)");
  }

  @Test
  void shouldRejectACampaignOnARackWithoutANic() throws Exception {
    assertContains(files().problems(files().edit(3, "  topology = demo")),
        "bad.conf:6: scenario.ftgm-campaign.nic: topology demo has no NIC");
  }

  @Test
  void shouldRejectAnUnknownCategoryNamingTheKnownOnes() throws Exception {
    assertContains(files().problems(files().edit(11, "      messages-lost = 0.2")),
        "bad.conf:11: scenario.ftgm-campaign.rates.messages-lost: category=messages-lost not in {interface-hang,"
            + "messages-corrupted,remote-interface-hang,mcp-restart,no-impact}");
  }

  @Test
  void shouldRejectARateOutsideZeroToOne() throws Exception {
    assertContains(files().problems(files().edit(10, "      interface-hang = 1.5")),
        "bad.conf:10: scenario.ftgm-campaign.rates.interface-hang: rate interface-hang=1.5 not in [0,1]");
    assertContains(files().problems(files().edit(10, "      interface-hang = -0.1")),
        "bad.conf:10: scenario.ftgm-campaign.rates.interface-hang: rate interface-hang=-0.1 not in [0,1]");
    assertContains(files().problems(files().edit(10, "      interface-hang = often")),
        "bad.conf:10: scenario.ftgm-campaign.rates.interface-hang: expected a probability in [0,1], got");
  }

  @Test
  void shouldRejectRatesThatSumAboveOne() throws Exception {
    assertContains(files().problems(files().edit(10, "      interface-hang = 0.9")),
        "bad.conf:9: scenario.ftgm-campaign.rates: rates sum=1.1 exceeds 1");
  }

  @Test
  void shouldRejectAnUnknownModeAFaultCountBelowOneAndTooManyPorts() throws Exception {
    List<String> lines = files().edit(8, "    modes = [gm, tcp]");
    lines.set(6, "    faults = 0");
    lines.set(12, "    recovery-ports = [1, 9]");
    String m = files().problems(lines);
    assertContains(m, "bad.conf:8: scenario.ftgm-campaign.modes[1]: mode=tcp not in {gm, ftgm}");
    assertContains(m, "bad.conf:7: scenario.ftgm-campaign.faults: faults=0 not in [1,1000000]");
    assertContains(m, "bad.conf:13: scenario.ftgm-campaign.recovery-ports[1]: recovery-ports=9 not in [1,8]");
  }

  @Test
  void shouldRejectRackTrafficOrAMultiJvmModeBesideACampaign() throws Exception {
    List<String> lines = new ArrayList<>(BASE);
    lines.add(4, "  mode = multi-jvm");
    lines.add(5, "  traffic = [ { from = ch1, to = ch2, count = 10 } ]");
    String m = files().problems(lines);
    assertContains(m, "bad.conf:5: scenario.mode: mode=multi-jvm does not apply: an ftgm-campaign runs in the"
        + " runner's JVM");
    assertContains(m, "bad.conf:6: scenario.traffic: not with ftgm-campaign: the campaign runs on the NIC's model");
    ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(files().write("cli.conf", BASE),
        ScenarioKinds.standard(), new ScenarioOptions(Mode.MULTI_JVM, null, null)));
    assertTrue(e.getMessage().contains("--mode multi-jvm does not apply"), e.getMessage());
  }

  @Test
  void shouldRejectAnUnknownKeyInTheSection() throws Exception {
    assertContains(files().problems(files().edit(7, "    fault = 20")),
        "bad.conf:7: scenario.ftgm-campaign.fault: unknown key (did you mean 'faults'?)");
  }

  private ScenarioFiles files() {
    return new ScenarioFiles(dir, BASE);
  }
}

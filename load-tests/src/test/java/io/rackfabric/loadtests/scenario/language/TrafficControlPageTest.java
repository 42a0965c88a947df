package io.rackfabric.loadtests.scenario.language;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Traffic aimed at a control page, where the data-plane fail-over keeps its mailboxes, is refused
 * at load with the generator's line. The kinds do not matter here: the catalog is empty.
 */
class TrafficControlPageTest {

  private static final KindCatalog<FaultKind, InvariantKind, FigureKind> NO_KINDS =
      KindCatalog.<FaultKind, InvariantKind, FigureKind>builder().build();

  /** On the testbed, ch1 reaches ch2's memory at 3L = 96GiB and the MMH's PMS2 copy at 2P. */
  private static String scenario(String topology, String to, String op) {
    return String.join("\n",
        "scenario {",                                                                     // 1
        "  topology = " + topology,                                                       // 2
        "  run { duration = 10us }",                                                      // 3
        "  traffic = [",                                                                  // 4
        "    { from = ch1, to = \"" + to + "\", op = " + op + ", size = 64, count = 8 }",  // 5
        "  ]",                                                                            // 6
        "}");
  }

  @Test
  void shouldRejectWritesIntoAComputeHostsControlPage() {
    // 96GiB + 0xFFC0: eight requests of 64 bytes run 0x1C0 bytes into ch2's page at 0x1_0000
    assertEquals(List.of("bad.conf:5: scenario.traffic[0].to: writes [0xFFC0, 0x101C0) of ch2, overlapping its"
        + " control page [0x10000, 0x11000), where the data-plane fail-over keeps its mailboxes"
        + " (global-memory.control-page of ladon-testbed.conf): start the traffic outside the page"),
        problems(scenario("ladon-testbed", "0x18_0000_FFC0", "write")));
  }

  @Test
  void shouldRejectReadsOfTheManagementHostsPms2Copy() {
    List<String> p = problems(scenario("ladon-testbed", "0x200_0001_0000", "read"));
    assertEquals(List.of("bad.conf:5: scenario.traffic[0].to: reads [0x1F800010000, 0x1F800010200) of mmh,"
        + " overlapping its control page [0x1F800010000, 0x1F800011000), where the data-plane fail-over keeps"
        + " its mailboxes (global-memory.control-page of ladon-testbed.conf): start the traffic outside the"
        + " page"), p);
  }

  @Test
  void shouldAcceptTrafficBesideThePageOrWithoutAManagementHost() throws ScenarioException {
    Scenario beside = ScenarioLoader.parse(scenario("ladon-testbed", "0x18_0001_1000", "write"), "ok.conf", null,
        NO_KINDS, ScenarioOptions.NONE);
    assertEquals(0x1_1000, beside.traffic().get(0).sinkAddress());

    // the generated 30-host rack has no room for fail-over, so no management host and no mailboxes
    Scenario generated = ScenarioLoader.parse(scenario("{ generate = ladon, hosts = 30 }", "0x18_0001_0000",
        "write"), "ok.conf", null, NO_KINDS, ScenarioOptions.NONE);
    assertEquals(0x1_0000, generated.traffic().get(0).sinkAddress());
  }

  private static List<String> problems(String text) {
    ScenarioException e = assertThrows(ScenarioException.class,
        () -> ScenarioLoader.parse(text, "bad.conf", null, NO_KINDS, ScenarioOptions.NONE));
    return e.problems();
  }
}

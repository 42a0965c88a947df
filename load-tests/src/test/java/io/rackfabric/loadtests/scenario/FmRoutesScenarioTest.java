package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.FlowControlScenarioTest.fig;
import static io.rackfabric.loadtests.scenario.FlowControlScenarioTest.figures;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fm-routes}: the fabric manager's path tables, two routes per destination, set the Ladon
 * CHs' route lists; CH1's primary cable pulled, CH1 moves to its alternate routes (the secondary
 * plane) on its own AER and the new tables move CH2's route to CH1 there, both before Ladon's own
 * notifications come, and the stream that does not cross the change is what it is without the
 * tables.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class FmRoutesScenarioTest {

  @TempDir Path dir;

  @Test
  void shouldMoveTheRouteListsByTheFabricManagersTablesAndLeaveTheOtherStreamAsItIsWhenACableIsPulled()
      throws Exception {
    Outcome first = BundledTwice.run("fm-routes", dir);
    Map<String, Double> m = figures(first);
    String all = m.toString();
    // two routes per destination while every link is up: 5 endpoints x 4 chosen, and an alternate
    // over the other plane wherever the chosen route crosses a plane switch (from and to the CHs)
    assertEquals(5 * 4 + 14, fig(m, "fm.paths.distribution.computed"), all);
    assertEquals(5 * 4 + 6, fig(m, "fm.paths.redistribution.0.computed"), "to and from CH1 only nt-sec is left");
    double tablesAt = fig(m, "fm.paths.redistribution.0.at_ns");
    double heldBy = tablesAt + fig(m, "fm.paths.redistribution.0.held_ns");
    // CH1, whose own primary cable was pulled, moved its targets (the MH, CH2) to their alternate
    // routes' plane on its own AER; the tables then found nothing to move at CH1 ...
    assertEquals(2, fig(m, "routes.ch1.moves_by_alternate"));
    assertEquals(0, fig(m, "routes.ch1.moves_by_fabric_manager"));
    for (String target : new String[] {"routes.ch1.to.0", "routes.ch1.to.2"}) {
      assertEquals(1, fig(m, target + ".secondary"), target);
      double movedAt = fig(m, target + ".set_by_alternate_ns");
      assertTrue(movedAt > 50_000 && movedAt < heldBy + 1_000, target + " moved at " + movedAt
          + " ns, before the tables' route-list update (held by " + heldBy + " ns)");
      assertTrue(movedAt < fig(m, "routes.ch1.first_notification_update_ns"), all);
    }
    // ... and moved CH2's CH1, which CH2 has no AER of, to the secondary plane, before Ladon's notification
    assertEquals(1, fig(m, "routes.ch2.moves_by_fabric_manager"));
    assertEquals(0, fig(m, "routes.ch2.moves_by_alternate"), "its own cables are whole");
    assertEquals(1, fig(m, "routes.ch2.to.1.secondary"));
    double ch2Moved = fig(m, "routes.ch2.to.1.set_by_fabric_manager_ns");
    assertTrue(ch2Moved > tablesAt && ch2Moved <= heldBy + 1_000, "moved at " + ch2Moved + ", tables at " + tablesAt);
    assertTrue(ch2Moved < fig(m, "routes.ch2.first_notification_update_ns"), all);
    assertEquals(0, fig(m, "routes.ch2.to.0.secondary"), "CH2 reaches the MH through its own primary cable still");
    // the stream that does not cross the change lost nothing
    assertEquals(fig(m, "traffic.ch2-to-mmh.sent"), fig(m, "sink.mmh.delivered"));
    assertEquals(0, fig(m, "sink.mmh.lost"));
    // the stream that crosses it follows the routes: once the MMH holds the new table its writes go to
    // CH1's PMS2 address; only those sent between the cut and that table are lost at the cable
    double lost = fig(m, "sink.ch1.lost");
    assertTrue(fig(m, "traffic.mmh-to-ch1.rerouted") > 0, all);
    assertEquals(fig(m, "traffic.mmh-to-ch1.sent"), fig(m, "sink.ch1.delivered") + lost);
    assertTrue(lost >= 1 && lost <= 1 + (heldBy - 50_000) / 500 + 1, lost + " lost: the one in flight, and those "
        + "sent from 50 us until the MMH held the table at " + heldBy + " ns (one every 500 ns)");
    assertEquals(fig(m, "traffic.mmh-to-ch1.sent") - 50 - (lost - 1), fig(m, "traffic.mmh-to-ch1.rerouted"),
        "every write after the table went through PMS2");

    Outcome without = run(bundledText()
        .replace("routes-per-destination = 2", "routes-per-destination = 2\n    rackfabric.fabric.management.distribute-paths = off")
        .replace("    paths-distributed\n", ""), "fm-routes-no-paths.conf");
    Map<String, Double> w = figures(without);
    assertEquals(sink(m), sink(w), "ch2-to-mmh as it is without the distribution of paths");
    assertEquals(1, fig(w, "routes.ch1.to.0.secondary"), "Ladon's notification moves the routes then");
    assertEquals(0, fig(w, "routes.ch1.moves_by_fabric_manager"));
    assertEquals(0, fig(w, "routes.ch1.moves_by_alternate"), "no table, no alternate: CH1 waits for the notification");
    assertEquals(0, fig(w, "traffic.mmh-to-ch1.rerouted"), "no table to follow");
    assertEquals(101, fig(w, "sink.ch1.lost"), "the one in flight and the 100 sent after the cut");
    assertTrue(fig(w, "routes.ch1.first_notification_update_ns") > fig(m, "routes.ch1.to.0.set_by_alternate_ns"),
        "the notification comes after the alternate would have");
  }

  private static Map<String, Double> sink(Map<String, Double> m) {
    Map<String, Double> out = new TreeMap<>();
    m.forEach((k, v) -> {
      if (k.startsWith("sink.mmh.") || k.startsWith("traffic.ch2-to-mmh.")) {
        out.put(k, v);
      }
    });
    return out;
  }

  private static String bundledText() throws Exception {
    try (InputStream in = ScenarioLoader.class.getResourceAsStream("/scenarios/fm-routes.conf")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private Outcome run(String text, String name) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, text);
    return FabricManagerScenarioTest.run(file, dir);
  }
}

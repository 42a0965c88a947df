package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.management.TopologyFabric;
import io.rackfabric.fabric.endpoint.TrafficPlan;
import io.rackfabric.fabric.management.Route;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a generator with {@code follow-routes = on} follows in the Ladon rack, from the bundled {@code fm-routes}. */
class RouteFollowingTrafficTest {

  private static String fmRoutes() throws Exception {
    try (InputStream in = ScenarioLoader.class.getResourceAsStream("/scenarios/fm-routes.conf")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static Scenario parse(String text) throws Exception {
    return ScenarioLoader.parse(text, "fm-routes.conf", Path.of("."), ScenarioKinds.standard(), ScenarioOptions.NONE);
  }

  @Test
  void shouldShiftTheMmhsWritesIntoCh1sSecondaryViewWhenItsRouteLeavesTorByToSec() throws Exception {
    Scenario s = parse(fmRoutes());
    Map<String, TrafficPlan.RouteFollowing> follows = RouteFollowingTraffic.all(s.topology().topology(), s.traffic());
    assertEquals(List.of("mmh-to-ch1"), List.copyOf(follows.keySet()), "ch2-to-mmh does not follow");
    TrafficPlan.RouteFollowing f = follows.get("mmh-to-ch1");
    TopologyFabric fabric = TopologyFabric.of(s.topology().topology(), FabricSettings.create(ConfigFactory.load()));
    assertEquals(fabric.serialOf("ch1"), f.destination());
    // ladon-testbed: CH1's memory at 32 GiB in PMS1 (nt-pri's link BAR), at 0x108_0000_0000 in PMS2 (nt-sec's)
    assertEquals(0x108_0000_0000L - 0x8_0000_0000L, f.shift(new Route(List.of(0, 4, 1, 0))), "tor.to-sec: PMS2");
    assertEquals(0, f.shift(new Route(List.of(0, 3, 1, 0))), "tor.to-pri: the address as written");
    assertEquals(0, f.shift(null), "no table held yet");
  }

  @Test
  void shouldRefuseNamingWhyWhenTheTargetHasNoAddressOnTheOtherPlane() throws Exception {
    String text = fmRoutes().replace("start = 25250ns }", "start = 25250ns, follow-routes = on }");
    Scenario s = parse(text); // the language accepts it: only the runner knows the global memory
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RouteFollowingTraffic.all(s.topology().topology(), s.traffic()));
    assertTrue(e.getMessage().contains("traffic ch2-to-mmh: follow-routes: ") && e.getMessage().contains("MANAGEMENT_HOST"),
        e.getMessage());
  }
}

package io.rackfabric.loadtests.scenario.language;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.language.TrafficRoutes.Route;
import io.rackfabric.cluster.topology.TopologyLoader;
import org.junit.jupiter.api.Test;

/** Destinations found by name, with the data plane's routing, on the bundled racks. */
class TrafficRoutesTest {

  @Test
  void shouldFindTheAddressACrossNtbDestinationHasForTheSource() throws Exception {
    TrafficRoutes demo = new TrafficRoutes(TopologyLoader.load("demo"));
    Route r = demo.toEndpoint("ch1", "ch2", false);
    assertEquals(0x3_0000_0000L, r.address(), "mh's 8GiB window for ch2, seen by ch1 4GiB higher");
    assertEquals(0, r.sinkAddress());
    assertEquals("ch1 > tor(ntb1>ntb2) > ch2", r.path());
    assertEquals(0x1_8000_0000L, demo.toEndpoint("ch2", "mem", false).address());
  }

  @Test
  void shouldPreferThePrimaryPathOnTheLadonTestbed() throws Exception {
    Route r = new TrafficRoutes(TopologyLoader.load("ladon-testbed")).toEndpoint("ch1", "ch2", false);
    assertEquals(96L << 30, r.address(), "CH2 at 64GiB + (2-1) x 32GiB through the primary NTBs");
    assertTrue(r.path().contains("nt-pri"), r.path());
  }

  @Test
  void shouldSayWhereARequestEndsWhenNothingTakesIt() throws Exception {
    TrafficRoutes demo = new TrafficRoutes(TopologyLoader.load("demo"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> demo.toAddress("ch1", 0x7000_0000_0000L, false));
    assertTrue(e.getMessage().startsWith("no route from ch1 reaches 0x700000000000: dropped at tor"), e.getMessage());
  }

  @Test
  void shouldRefuseADestinationInTheSourcesOwnMemory() throws Exception {
    TrafficRoutes demo = new TrafficRoutes(TopologyLoader.load("demo"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> demo.toAddress("ch1", 0x40, false));
    assertEquals("0x40 is in ch1's own memory: the requests would never leave it", e.getMessage());
  }

  @Test
  void shouldAcceptARegionThatFitsTheBarAndRefuseOneThatDoesNot() throws Exception {
    TrafficRoutes demo = new TrafficRoutes(TopologyLoader.load("demo"));
    Route mem = demo.toEndpoint("mh", "mem", false);
    assertNull(demo.regionProblem("mh", mem, 65536, 4096, false), "256MiB of a 256MiB BAR");
    assertTrue(demo.regionProblem("mh", mem, 65537, 4096, false).contains("has room for 65536 from there"));
  }
}

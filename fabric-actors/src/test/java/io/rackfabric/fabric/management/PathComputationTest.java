package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.management.StructuralFabric.PortRef;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PathComputationTest {

  private static final DataLinkState ACTIVE = DataLinkState.DL_ACTIVE;
  private static final long FM = 7;
  private static final long E1 = 8;
  private static final long E2 = 9;
  private static final long E3 = 10;

  /**
   * Three switches of {@code ports} ports in a triangle: sw1 (fm on 1, e1 on 2) to sw2 twice (its
   * ports 3 and ports-2, to sw2's 3 and 0) and to sw3 (ports-1 to 0); sw2 (e2 on 2) to sw3 (both
   * ports-1); sw3 has e3 on 2. The links' ports follow the port count.
   */
  private static StructuralFabric triangle(int ports) {
    int last = ports - 1;
    return new StructuralFabric(List.of(TestDevices.endpoint("fm", FM, 0, ACTIVE),
        TestDevices.endpoint("e1", E1, -1, ACTIVE), TestDevices.endpoint("e2", E2, -1, ACTIVE),
        TestDevices.endpoint("e3", E3, -1, ACTIVE),
        TestDevices.switchOf("sw1", 11, ports, Set.of(1, 2, 3, last - 1, last), ACTIVE),
        TestDevices.switchOf("sw2", 12, ports, Set.of(0, 2, 3, last), ACTIVE),
        TestDevices.switchOf("sw3", 13, ports, Set.of(0, 2, last), ACTIVE)),
        List.of(link("fm", 0, "sw1", 1), link("e1", 0, "sw1", 2), link("e2", 0, "sw2", 2), link("e3", 0, "sw3", 2),
            link("sw1", 3, "sw2", 3), link("sw1", last - 1, "sw2", 0), link("sw1", last, "sw3", 0),
            link("sw2", last, "sw3", last)));
  }

  private static List<PortRef> link(String a, int pa, String b, int pb) {
    return List.of(new PortRef(a, pa), new PortRef(b, pb));
  }

  private static PathComputation.Result compute(StructuralFabric fabric) {
    return PathComputation.compute(fabric.discover("fm", 8, p -> {}).database(), FM);
  }

  private static Optional<Route> route(PathComputation.Result r, long from, long to) {
    return r.tables().stream().filter(t -> t.endpoint() == from).findFirst().orElseThrow().route(to);
  }

  private static Optional<Route> turns(Integer... turns) {
    return Optional.of(new Route(List.of(turns)));
  }

  @ParameterizedTest(name = "{0} ports")
  @ValueSource(ints = {8, 24})
  void shouldGiveEveryEndpointTheShortestRouteWithTheLowestTurnsToEveryOtherWhenTheFabricHasLoops(int ports) {
    PathComputation.Result r = compute(triangle(ports));
    assertEquals(List.of(FM, E1, E2, E3), r.tables().stream().map(PathTable::endpoint).toList(),
        "the endpoints the fabric manager reaches, in the order it reaches them");
    assertEquals(4 * 3, r.paths());
    assertEquals(0, r.tooLong());
    assertEquals(turns(0, 2), route(r, FM, E1));
    assertEquals(turns(0, 3, 2), route(r, FM, E2), "of sw1's two links to sw2, the lower port");
    assertEquals(turns(0, ports - 1, 2), route(r, FM, E3));
    assertEquals(turns(0, 0, 1), route(r, E2, FM), "of sw2's two links to sw1, the lower port");
    assertEquals(turns(0, ports - 1, 2), route(r, E2, E3), "straight across, not through sw1");
    assertEquals(Optional.empty(), route(r, E1, E1), "no path to itself");
  }

  @ParameterizedTest(name = "{0} ports")
  @ValueSource(ints = {8, 24})
  void shouldAvoidALinkThatIsDownAndChangeOnlyThePathsThatCrossedItWhenALinkGoesDown(int ports) {
    PathComputation.Result before = compute(triangle(ports));
    StructuralFabric cut = triangle(ports);
    cut.device("sw2").setPortState(ports - 1, DataLinkState.DL_INACTIVE, DataLinkState.DL_INACTIVE);
    PathComputation.Result after = compute(cut);
    assertEquals(turns(0, 0, ports - 1, 2), route(after, E2, E3), "around through sw1");
    assertEquals(turns(0, 0, 3, 2), route(after, E3, E2), "sw1's lower link to sw2");
    for (PathTable t : before.tables()) {
      for (PathTable.Entry e : t.entries()) {
        boolean crossed = (t.endpoint() == E2 && e.destination() == E3) || (t.endpoint() == E3 && e.destination() == E2);
        if (!crossed) {
          assertEquals(Optional.of(e.route()), route(after, t.endpoint(), e.destination()),
              t.endpoint() + " to " + e.destination() + " did not cross the link");
        }
      }
    }
  }

  @ParameterizedTest(name = "{0} ports")
  @ValueSource(ints = {8, 24})
  void shouldLeaveOutEndpointsTheFabricManagerCannotReachWhenTheirSwitchIsCutOff(int ports) {
    StructuralFabric cut = triangle(ports);
    cut.device("sw3").setPortState(0, DataLinkState.DL_INACTIVE, DataLinkState.DL_INACTIVE);
    cut.device("sw3").setPortState(ports - 1, DataLinkState.DL_INACTIVE, DataLinkState.DL_INACTIVE);
    PathComputation.Result r = compute(cut);
    assertEquals(List.of(FM, E1, E2), r.tables().stream().map(PathTable::endpoint).toList());
    assertEquals(3 * 2, r.paths(), "no path to e3 from anyone");
  }
}

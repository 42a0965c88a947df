package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.management.StructuralFabric.PortRef;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Two routes per destination ({@link PathComputation}): the chosen one and an alternate over the other plane. */
class PathAlternatesTest {

  private static final DataLinkState ACTIVE = DataLinkState.DL_ACTIVE;
  private static final long FM = 7;
  private static final long A = 8;
  private static final long B = 9;

  /**
   * A dual star as Ladon's: fm on pfm, a on pa, b on pb (each a root-port switch: port 0 up, 1 to
   * plane 1, 2 to plane 2); the plane switches p1 and p2 reach pfm, pa and pb on their ports 0,
   * 1 and 2.
   */
  private static StructuralFabric dualStar() {
    return new StructuralFabric(List.of(TestDevices.endpoint("fm", FM, 0, ACTIVE),
        TestDevices.endpoint("a", A, -1, ACTIVE), TestDevices.endpoint("b", B, -1, ACTIVE),
        TestDevices.switchOf("pfm", 11, 3, Set.of(0, 1, 2), ACTIVE),
        TestDevices.switchOf("pa", 12, 3, Set.of(0, 1, 2), ACTIVE),
        TestDevices.switchOf("pb", 13, 3, Set.of(0, 1, 2), ACTIVE),
        TestDevices.switchOf("p1", 14, 3, Set.of(0, 1, 2), ACTIVE),
        TestDevices.switchOf("p2", 15, 3, Set.of(0, 1, 2), ACTIVE)),
        List.of(link("fm", 0, "pfm", 0), link("a", 0, "pa", 0), link("b", 0, "pb", 0),
            link("pfm", 1, "p1", 0), link("pa", 1, "p1", 1), link("pb", 1, "p1", 2),
            link("pfm", 2, "p2", 0), link("pa", 2, "p2", 1), link("pb", 2, "p2", 2)));
  }

  private static List<PortRef> link(String a, int pa, String b, int pb) {
    return List.of(new PortRef(a, pa), new PortRef(b, pb));
  }

  private static PathTable table(StructuralFabric fabric, long endpoint, int routes) {
    return PathComputation.compute(fabric.discover("fm", 8, p -> {}).database(), FM, routes).tables().stream()
        .filter(t -> t.endpoint() == endpoint).findFirst().orElseThrow();
  }

  @Test
  void shouldGiveAnAlternateThroughTheOtherPlaneWhenTwoRoutesPerDestinationAreAsked() {
    PathTable a = table(dualStar(), A, 2);
    assertEquals(List.of(new PathTable.Entry(FM, new Route(List.of(0, 1, 0, 0))),
        new PathTable.Entry(FM, new Route(List.of(0, 2, 0, 0)), 1),
        new PathTable.Entry(B, new Route(List.of(0, 1, 2, 0))),
        new PathTable.Entry(B, new Route(List.of(0, 2, 2, 0)), 1)), a.entries(),
        "the chosen route through plane 1 (the lower port), the alternate through plane 2");
    assertEquals(a.chosen(), table(dualStar(), A, 1).entries(), "one route per destination: the chosen ones only");
  }

  @Test
  void shouldChooseTheOtherPlaneAndHaveNoAlternateWhenAPlaneLinkIsDown() {
    StructuralFabric cut = dualStar();
    cut.device("pa").setPortState(1, DataLinkState.DL_INACTIVE, DataLinkState.DL_INACTIVE);
    PathTable a = table(cut, A, 2);
    assertEquals(List.of(new PathTable.Entry(FM, new Route(List.of(0, 2, 0, 0))),
        new PathTable.Entry(B, new Route(List.of(0, 2, 2, 0)))), a.entries(),
        "plane 2 chosen; avoiding p2 leaves no route: no alternate");
    assertEquals(List.of(new PathTable.Entry(FM, new Route(List.of(0, 1, 0, 0))),
        new PathTable.Entry(FM, new Route(List.of(0, 2, 0, 0)), 1),
        new PathTable.Entry(A, new Route(List.of(0, 2, 1, 0)))), table(cut, B, 2).entries(),
        "b reaches a through plane 2 only; its route to fm keeps both");
  }

  @Test
  void shouldRefuseMoreRoutesPerDestinationThanATableHolds() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PathComputation.compute(new TopologyDatabase(), FM, 3));
    assertEquals("routesPerDestination=3 not in [1,2]", e.getMessage());
  }
}

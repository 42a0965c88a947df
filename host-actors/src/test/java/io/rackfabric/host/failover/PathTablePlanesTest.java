package io.rackfabric.host.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rackfabric.fabric.management.PathTable;
import io.rackfabric.fabric.management.Route;
import io.rackfabric.host.memory.Plane;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PathTablePlanesTest {

  private static final long MH = 100;
  private static final long CH1 = 101;
  private static final long CH2 = 102;
  private static final long NIC = 103;
  /** The MH is target 0, CH1 1, CH2 2; the root-port switch's port 1 leads to the primary plane, 2 to the secondary. */
  private static final PathTablePlanes PLANES = new PathTablePlanes(Map.of(MH, 0, CH1, 1, CH2, 2),
      Map.of(1, Plane.PRIMARY, 2, Plane.SECONDARY));

  private static PathTable.Entry entry(long destination, int rank, Integer... turns) {
    return new PathTable.Entry(destination, new Route(List.of(turns)), rank);
  }

  @Test
  void shouldTakeThePlaneOfTheChosenRouteWhenATargetHasAnAlternate() {
    PathTable table = new PathTable(CH1, List.of(entry(MH, 0, 0, 2, 0, 0), entry(MH, 1, 0, 1, 0, 0),
        entry(CH2, 0, 0, 1, 2, 0), entry(CH2, 1, 0, 2, 2, 0)));
    assertEquals(Map.of(0, Plane.SECONDARY, 2, Plane.PRIMARY), PLANES.planes(table));
    assertEquals(Map.of(0, Plane.PRIMARY, 2, Plane.SECONDARY), PLANES.alternates(table), "rank 1 only");
    assertEquals(Map.of(), PLANES.alternates(new PathTable(CH1, List.of(entry(MH, 0, 0, 1, 0, 0)))),
        "no alternate in a table of one route per destination");
  }

  @Test
  void shouldLeaveOutWhatIsNoTargetOrLeavesByNoRootPortWhenTheTableHasIt() {
    PathTable table = new PathTable(CH1, List.of(entry(NIC, 0, 0, 1, 0, 2), entry(MH, 0, 0, 0, 0),
        entry(CH2, 0, 0)));
    assertEquals(Map.of(), PLANES.planes(table), "the NIC is no target, port 0 is no root port, one turn names none");
  }

  @Test
  void shouldRefuseRootPortsThatDoNotNameBothPlanes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new PathTablePlanes(Map.of(MH, 0), Map.of(1, Plane.PRIMARY)));
    assertEquals("rootPorts={1=PRIMARY} does not name both planes", e.getMessage());
  }
}

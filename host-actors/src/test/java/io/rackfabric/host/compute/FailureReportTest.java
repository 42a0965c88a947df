package io.rackfabric.host.compute;

import static io.rackfabric.host.memory.Plane.PRIMARY;
import static io.rackfabric.host.memory.Plane.SECONDARY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.rackfabric.host.compute.FailureReport.Aer;
import io.rackfabric.host.failover.ControlWord;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FailureReportTest {

  private static final LadonAddresses ADDRESSES = new LadonAddresses(GlobalMemoryLayout.paper(2), 0x1_0000);
  private static final Map<String, Plane> PORTS = Map.of("00:01.0", PRIMARY, "00:02.0", SECONDARY);

  @Test
  void shouldNotFailAPlaneWhenTheAerIsNotAFatalOneFromARootPort() {
    FailureReport report = new FailureReport(1, ADDRESSES, PORTS);
    assertEquals(Aer.NOT_A_ROOT_PORT, report.aer("03:00.0", "FATAL"));
    assertEquals(Aer.NOT_A_ROOT_PORT, report.aer("00:01.0", "NONFATAL"));
    assertNull(report.failed());
  }

  @Test
  void shouldReportThroughTheOtherPlaneWithANewSequenceEachCopyWhenARootPortFails() {
    FailureReport report = new FailureReport(2, ADDRESSES, PORTS);
    assertEquals(Aer.FAILED, report.aer("00:01.0", "FATAL"));
    assertEquals(PRIMARY, report.failed());
    FailureReport.Copy first = report.next();
    FailureReport.Copy resent = report.next();
    assertEquals(ADDRESSES.reportSlot(2, SECONDARY), first.address());
    assertEquals(new ControlWord(ControlWord.Kind.FAILURE_REPORT, 2, PRIMARY, 1), first.word());
    assertEquals(2, resent.word().seq());
  }

  @Test
  void shouldKeepTheFirstFailedPlaneWhenAPlaneFailsAgainOrTheOtherFails() {
    FailureReport report = new FailureReport(1, ADDRESSES, PORTS);
    report.aer("00:01.0", "FATAL");
    assertEquals(Aer.AGAIN, report.aer("00:01.0", "FATAL"));
    assertEquals(Aer.NO_PATH_LEFT, report.aer("00:02.0", "FATAL"));
    assertEquals(PRIMARY, report.failed());
  }
}

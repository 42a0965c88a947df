package io.rackfabric.loadtests.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.host.controlplane.ControlPlaneSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The controller benchmark measures what it says: no speed is asserted, only what ran. */
class ControllerBenchTest {

  @TempDir Path data;

  @Test
  void shouldReplayEveryChangeOnTakeOverAndRecoveryWhenRunOnASmallChangeLog() throws Exception {
    ControllerBench.Result r = ControllerBench.run(200, data, new PrintStream(new ByteArrayOutputStream()));
    assertEquals(200, r.events());
    assertEquals(200, r.takeover().eventsReplayed(), "the BMH folded the whole change log over its template image");
    assertEquals(0, r.takeover().eventsReadBack(), "as it persisted them: its controller read none back");
    assertEquals(ControlPlaneSettings.create(ConfigFactory.load()).rebootTimeNs(), r.takeover().rebootNs());
    assertTrue(r.replicatedOpsPerS() > 0 && r.bareWriteEventsPerS() > 0 && r.recoveryEventsPerS() > 0
        && r.bareReadEventsPerS() > 0, r.toString());
    // The rejoin after the take-over: a host with an empty journal received the master's whole
    // journal (the 200 operations and the 4 boot events) and is its backup.
    assertEquals(204, r.rejoin().transferred(), r.rejoin().toString());
    assertTrue(r.rejoin().eventsPerS() > 0, r.rejoin().toString());
  }

  @Test
  void shouldFailTheRunWithTheJoinersReasonWhenTheRejoinIsRefused() {
    RoleChanged refused = new RoleChanged("mmh-replacement", Role.FENCED, false, 0,
        "refused by the master: not a prefix (first differing seqNr=3)");
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> RejoinTransfer.of(refused, 204, 0.1));
    assertTrue(e.getMessage().contains("is FENCED: refused by the master: not a prefix"), e.getMessage());
  }

  @Test
  void shouldFailTheRunWhenTheJoinerEndsShortOfTheMaster() {
    RoleChanged behind = new RoleChanged("mmh-replacement", Role.BACKUP, true, 200, "rejoined");
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> RejoinTransfer.of(behind, 204, 0.1));
    assertTrue(e.getMessage().contains("lastSeqNr=200, the master stands at 204"), e.getMessage());
  }

  @Test
  void shouldRateTheTransferByItsEventsOverItsWallTimeWhenTheJoinerIsTheBackup() {
    RejoinTransfer t = RejoinTransfer.of(new RoleChanged("mmh-replacement", Role.BACKUP, true, 204, "rejoined"), 204, 0.5);
    assertEquals(204, t.transferred());
    assertEquals(408.0, t.eventsPerS());
    assertThrows(IllegalArgumentException.class, () -> new RejoinTransfer(204, 0));
  }

  @Test
  void shouldScaleTheTakeoverTargetWithTheEventsWhenJudgingARun() {
    String small = ControllerBench.verdicts(10_000, 0.6, 0.9, 10_000, 0.4);
    assertTrue(small.contains("(>= 0.5: met)") && small.contains("(>= 0.8: met)") && small.contains("(<= 0.50 s: met)"),
        small);
    String large = ControllerBench.verdicts(100_000, 0.4, 0.7, 100_000, 4.0);
    assertTrue(large.contains("(>= 0.5: NOT met)") && large.contains("(>= 0.8: NOT met)")
        && large.contains("(<= 5.00 s: met)"), large);
    String resumed = ControllerBench.verdicts(10_000, 0.6, 30.0, 0, 0.05);
    assertTrue(resumed.contains("take-over replay: none (0 events read back") && !resumed.contains("(>= 0.8: met)"),
        "a take-over that read nothing back is not judged as a fast replay: " + resumed);
  }
}

package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.tlp.FabricMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

class CandidacyTest {

  private static ElectionFlood endpointFlood(long serial, DataLinkState state) {
    return new ElectionFlood(ConfigurationSpace.of(TestDevices.endpoint("ep", serial, 0, state)));
  }

  @Test
  void shouldClaimOnceOutOfItsTrainedPortWhenItsLinkIsUp() {
    Candidacy c = new Candidacy(endpointFlood(7, DataLinkState.DL_PROTECTED), 1, 7);
    List<FabricMessage> out = c.claim(500);
    assertEquals(1, out.size());
    assertEquals(List.of(0), out.get(0).turns());
    assertEquals(new ElectionClaim(1, 7), out.get(0).packet());
    assertEquals(20, out.get(0).packet().sizeBytes());
    assertEquals(List.of(), c.claim(600), "a candidate claims once");
    assertEquals(500, c.report().claimedAt());
  }

  @Test
  void shouldBePrimaryWhenItsClaimIsBestAndSecondaryWhenSecond() {
    ElectionFlood f = endpointFlood(7, DataLinkState.DL_PROTECTED);
    Candidacy c = new Candidacy(f, 1, 7);
    c.claim(0);
    assertEquals(Candidacy.Role.PRIMARY, c.decide(10), "alone, it wins");
    f.onClaim(new ElectionClaim(0, 99), 0, 20);
    assertEquals(Candidacy.Role.SECONDARY, c.decide(30));
    assertEquals(new ElectionClaim(0, 99), c.partner());
    f.onClaim(new ElectionClaim(0, 3), 0, 40);
    assertEquals(Candidacy.Role.NONE, c.decide(50), "two better claims");
    assertNull(c.partner());
    Candidacy.Report r = c.report();
    assertEquals(3, r.primarySerial());
    assertEquals(99, r.secondarySerial());
    assertEquals(40, r.lastChangeAt());
    assertEquals(2, r.claimsReceived());
  }

  @Test
  void shouldRefuseAPriorityOutsideTheRegisterWhenCreated() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new Candidacy(endpointFlood(7, DataLinkState.DL_PROTECTED), 256, 7));
    assertTrue(e.getMessage().contains("priority=256"), e.getMessage());
  }

  /** Candidate 7 (priority 1), secondary to 99 (priority 0) after deciding at 30. */
  private static Candidacy secondaryOf99() {
    ElectionFlood f = endpointFlood(7, DataLinkState.DL_PROTECTED);
    Candidacy c = new Candidacy(f, 1, 7);
    c.claim(0);
    f.onClaim(new ElectionClaim(0, 99), 0, 20);
    c.decide(30);
    return c;
  }

  @Test
  void shouldBePrimaryWithNoPartnerWhenTheSecondaryTakesOver() {
    Candidacy c = secondaryOf99();
    assertFalse(new Candidacy(endpointFlood(8, DataLinkState.DL_PROTECTED), 2, 8).takeOver(40), "undecided: no");
    c.heartbeatArrived(100, 150);
    assertTrue(c.takeOver(156));
    assertEquals(Candidacy.Role.PRIMARY, c.role());
    assertNull(c.partner(), "the old primary is dead: nobody to send heartbeats to");
    Candidacy.Watch w = c.report().watch();
    assertEquals(156, w.tookOverAt());
    assertEquals(100, w.lastHeartbeatSentAt());
    assertEquals(150, w.lastHeartbeatAt());
    assertFalse(c.takeOver(200), "once");
  }

  @Test
  void shouldWatchItsAppointeeWhenItAppointsOneAfterTakingOver() {
    Candidacy c = secondaryOf99();
    assertFalse(c.appoint(new ElectionClaim(2, 5), 40, 3), "no take-over yet: nothing to appoint");
    c.takeOver(156);
    assertTrue(c.appoint(new ElectionClaim(2, 5), 200, 3));
    assertEquals(new ElectionClaim(2, 5), c.partner(), "its heartbeats and copy go to the appointee");
    Candidacy.Watch w = c.report().watch();
    assertEquals(200, w.appointedAt());
    assertEquals(5, w.appointeeSerial());
    assertEquals(3, w.candidatesRead());
    assertEquals(Candidacy.Role.SECONDARY, c.report().role(), "the report keeps what the election made it");
  }

  @Test
  void shouldBecomeSecondaryWhenAnAppointmentNamesItSecond() {
    ConfigurationSpace space = ConfigurationSpace.of(TestDevices.endpoint("c", 5, 2, DataLinkState.DL_PROTECTED));
    ElectionFlood f = new ElectionFlood(space);
    Candidacy c = new Candidacy(f, 2, 5);
    c.claim(0);
    f.onClaim(new ElectionClaim(0, 99), 0, 10);
    f.onClaim(new ElectionClaim(1, 7), 0, 20);
    assertEquals(Candidacy.Role.NONE, c.decide(30));
    assertFalse(c.appointedIf(40), "the capability still names 99 and 7");
    // 99 died; 7 took over and appoints 5 with the pair in one write
    assertTrue(space.spanningTree().write(SpanningTreeCapability.PRIMARY,
        SpanningTreeCapability.appointment(new SpanningTreeCapability.Claim(1, 7), new SpanningTreeCapability.Claim(2, 5))));
    assertTrue(c.appointedIf(60));
    assertEquals(Candidacy.Role.SECONDARY, c.role());
    assertEquals(new ElectionClaim(1, 7), c.partner(), "it watches the primary that appointed it");
    assertEquals(7, c.report().watch().appointerSerial());
    assertEquals(60, c.report().watch().appointedAt());
    assertEquals(Candidacy.Role.NONE, c.report().role(), "the election made it none");
    assertFalse(c.appointedIf(70), "once");
  }
}

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

  @Test
  void shouldBePrimaryWithNoPartnerWhenTheSecondaryTakesOver() {
    ElectionFlood f = endpointFlood(7, DataLinkState.DL_PROTECTED);
    Candidacy c = new Candidacy(f, 1, 7);
    c.claim(0);
    f.onClaim(new ElectionClaim(0, 99), 0, 20);
    c.decide(30);
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
}

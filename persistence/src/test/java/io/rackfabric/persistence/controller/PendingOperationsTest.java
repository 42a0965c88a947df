package io.rackfabric.persistence.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.persistence.controller.Controller.AddHost;
import io.rackfabric.persistence.controller.Controller.Request;
import io.rackfabric.persistence.controller.ControllerEvent.HostAdded;
import io.rackfabric.persistence.controller.ControllerEvent.RequestApplied;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PendingOperationsTest {

  private static AddHost addHost(String host) {
    return new AddHost(host, 0x100, 0, 4096, 1_000, null);
  }

  private static HostAdded hostAdded(String host, long at) {
    return new HostAdded(host, 0x100, 0, 4096, at);
  }

  @Test
  void shouldNumberAfterJournalAndPendingWhenOperationsQueue() {
    PendingOperations pending = new PendingOperations();
    ControllerState persisted = ControllerState.empty();

    var a = pending.add(addHost("ch1"), List.of(hostAdded("ch1", 1_000)), persisted, 7);
    var b = pending.add(addHost("ch2"), List.of(hostAdded("ch2", 2_000), hostAdded("ch3", 2_000)), persisted, 7);

    assertEquals(8, a.firstSeqNr);
    assertEquals(9, b.firstSeqNr);
    assertEquals(10, b.lastSeqNr());
    assertEquals(3, pending.projected(persisted).hosts().size(), "decided on what is pending");
    assertSame(persisted, new PendingOperations().projected(persisted));
  }

  /** Hosts ch1 to chN added, one pending entry each, numbered from 1 over an empty journal. */
  private static List<PendingOperations.Entry> addHosts(PendingOperations pending, int n) {
    List<PendingOperations.Entry> entries = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      entries.add(pending.add(addHost("ch" + i), List.of(hostAdded("ch" + i, i)), ControllerState.empty(), 0));
    }
    return entries;
  }

  @Test
  void shouldReleaseOnlyTheReplicatedPrefixWhenAnswersArriveOutOfOrder() {
    PendingOperations pending = new PendingOperations();
    ControllerState s = ControllerState.empty();
    List<PendingOperations.Entry> added = addHosts(pending, 3);
    var a = added.get(0);
    var b = added.get(1);
    var c = added.get(2);

    assertTrue(pending.replicated(c.firstSeqNr).isEmpty());
    assertTrue(pending.replicated(b.firstSeqNr).isEmpty());
    assertEquals(List.of(a, b, c), pending.replicated(a.firstSeqNr));
    assertEquals(0, pending.size());
    // After the queue empties, numbering restarts from the journal (which now holds them).
    assertEquals(4, pending.add(addHost("ch4"), List.of(hostAdded("ch4", 4)), s, 3).firstSeqNr);
  }

  @Test
  void shouldReleaseWhatTheBackupHoldsWithTheFirstAnswerWhenTheOthersAreStillOnTheWay() {
    PendingOperations pending = new PendingOperations();
    List<PendingOperations.Entry> added = addHosts(pending, 4);
    var a = added.get(0);
    var b = added.get(1);
    var c = added.get(2);
    var d = added.get(3);
    b.backupHolds();
    d.backupHolds(); // held, but after c, which the backup does not hold yet

    assertEquals(List.of(a, b), pending.replicated(a.firstSeqNr), "b goes with a: one write");
    assertTrue(pending.replicated(b.firstSeqNr).isEmpty(), "b's own answer finds it written");
    assertEquals(List.of(c, d), pending.replicated(c.firstSeqNr));
    assertEquals(0, pending.size());
  }

  @Test
  void shouldDropEveryPendingAndRefuseMoreWhenOneFails() {
    PendingOperations pending = new PendingOperations();
    ControllerState s = ControllerState.empty();
    var a = pending.add(addHost("ch1"), List.of(hostAdded("ch1", 1)), s, 0);
    var b = pending.add(addHost("ch2"), List.of(hostAdded("ch2", 2)), s, 0);

    assertEquals(List.of(a, b), pending.failed(a.firstSeqNr, "timeout"));
    assertTrue(pending.failure().contains("seqNr 1: timeout"), pending.failure());
    assertTrue(pending.replicated(b.firstSeqNr).isEmpty(), "a late success of a dropped one persists nothing");
    assertTrue(pending.failed(b.firstSeqNr, "late").isEmpty());
    assertThrows(IllegalStateException.class,
        () -> pending.add(addHost("ch3"), List.of(hostAdded("ch3", 3)), s, 0));
  }

  @Test
  void shouldDropEverythingAndRefuseMoreWhenTheJournalDisagreesWithTheNumbering() {
    PendingOperations pending = new PendingOperations();
    ControllerState s = ControllerState.empty();
    var a = pending.add(addHost("ch1"), List.of(hostAdded("ch1", 1)), s, 0);

    assertEquals(List.of(a), pending.failAll("persisted up to seqNr 2 but numbered up to 1"));
    assertEquals(0, pending.size());
    assertEquals("persisted up to seqNr 2 but numbered up to 1", pending.failure());
    assertThrows(IllegalStateException.class,
        () -> pending.add(addHost("ch2"), List.of(hostAdded("ch2", 2)), s, 2));
  }

  @Test
  void shouldFindThePendingRequestWhenItIsResent() {
    PendingOperations pending = new PendingOperations();
    ControllerState s = ControllerState.empty();
    var req = pending.add(new Request("ch1-driver", 5, addHost("ch1")),
        List.of(hostAdded("ch1", 1), new RequestApplied("ch1-driver", 5, 1)), s, 0);

    assertSame(req, pending.pendingRequest("ch1-driver", 5));
    assertNull(pending.pendingRequest("ch1-driver", 4));
    assertNull(pending.pendingRequest("ch2-driver", 5));
    assertEquals(5, pending.projected(s).lastRequest("ch1-driver"));
  }
}

package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.persistence.controller.ControllerEvent;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Which borrowers a master tells, and on which channel, when the controller removes a lender. */
class LoanNoticesTest {

  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final GuestAddress CH2 = new GuestAddress("ch2",
      testKit.<MemoryEndpoint.Command>createTestProbe().ref(), testKit.<GuestCall>createTestProbe().ref());
  private static final GuestAddress CH3 = new GuestAddress("ch3",
      testKit.<MemoryEndpoint.Command>createTestProbe().ref(), testKit.<GuestCall>createTestProbe().ref());

  private final LoanNotices notices = new LoanNotices();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private static ControllerEvent offered(String device, String lender) {
    return new ControllerEvent.DeviceOffered(device, lender, null, List.of(), 10);
  }

  private static ControllerEvent lent(String device, String borrower) {
    return new ControllerEvent.DeviceLent(device, borrower, null, 0, 0, 0, 100);
  }

  @Test
  void shouldTellEachBorrowerOfTheRemovedLendersDevicesOnItsBorrowsChannel() {
    notices.accepted(List.of(offered("gpu1", "ch1"), offered("gpu2", "ch1"), offered("gpu3", "ch4")), null);
    notices.accepted(List.of(lent("gpu1", "ch2")), CH2);
    notices.accepted(List.of(lent("gpu2", "ch3")), CH3);
    notices.accepted(List.of(lent("gpu3", "ch2")), CH2);
    List<LoanNotices.Notice> out = notices.accepted(List.of(new ControllerEvent.HostRemoved("ch1", 3_002_531)), null);
    assertEquals(List.of(
        new LoanNotices.Notice(CH2, new ControlPlaneHost.LoanEnded("gpu1", "ch1", "ch2", 3_002_531,
            "lender=ch1 was removed from the rack at=3002531ns")),
        new LoanNotices.Notice(CH3, new ControlPlaneHost.LoanEnded("gpu2", "ch1", "ch3", 3_002_531,
            "lender=ch1 was removed from the rack at=3002531ns"))), out, "gpu3's lender is still there");
    assertEquals(List.of(), notices.accepted(List.of(new ControllerEvent.HostRemoved("ch1", 4_000_000)), null),
        "told once");
  }

  @Test
  void shouldTellNobodyOfAReturnedLoanOrAnOfferNotLent() {
    notices.accepted(List.of(offered("gpu1", "ch1"), offered("gpu2", "ch1")), null);
    notices.accepted(List.of(lent("gpu1", "ch2")), CH2);
    notices.accepted(List.of(new ControllerEvent.DeviceReturned("gpu1", "ch2", 200)), CH2);
    assertEquals(List.of(), notices.accepted(List.of(new ControllerEvent.HostRemoved("ch1", 300)), null));
  }

  @Test
  void shouldTellNobodyWhenTheRemovedHostIsTheBorrower() {
    notices.accepted(List.of(offered("gpu1", "ch1")), null);
    notices.accepted(List.of(lent("gpu1", "ch2")), CH2);
    assertEquals(List.of(), notices.accepted(List.of(new ControllerEvent.HostRemoved("ch2", 300)), null));
    assertEquals(List.of(), notices.accepted(List.of(new ControllerEvent.HostRemoved("ch1", 400)), null),
        "the loan ended with its borrower");
  }

  @Test
  void shouldNameTheBorrowerWithNoChannelWhenItsBorrowWasNotAskedOnOne() {
    notices.accepted(List.of(offered("gpu1", "ch1"), lent("gpu1", "ch2")), null);
    List<LoanNotices.Notice> out = notices.accepted(List.of(new ControllerEvent.HostRemoved("ch1", 300)), null);
    assertEquals(1, out.size());
    assertEquals(null, out.get(0).to(), "no channel known: the host logs it");
    assertEquals("ch2", out.get(0).loanEnded().borrower());
  }

  @Test
  void shouldTellTheBorrowerOfALoanItOnlyReplicatedWhenTheHostTookOverSince() {
    // As a backup: the loan's events came with the channel its borrow was asked on at the master.
    notices.accepted(List.of(offered("gpu1", "ch1")), null);
    notices.accepted(List.of(lent("gpu1", "ch2")), CH2);
    // As the master after the take-over: its own controller removes the lender.
    List<LoanNotices.Notice> out = notices.accepted(List.of(new ControllerEvent.HostRemoved("ch1", 40_000)), null);
    assertEquals(List.of(CH2), out.stream().map(LoanNotices.Notice::to).toList());
  }

  @Test
  void shouldForgetEveryLoanWhenTheJournalIsRewritten() {
    notices.accepted(List.of(offered("gpu1", "ch1"), offered("gpu2", "ch1")), null);
    notices.accepted(List.of(lent("gpu1", "ch2")), CH2);
    notices.forgetLoans(); // a rejoin: the events written again say gpu2 alone is lent
    notices.accepted(List.of(offered("gpu1", "ch1"), offered("gpu2", "ch1"), lent("gpu2", "ch3")), null);
    List<LoanNotices.Notice> out = notices.accepted(List.of(new ControllerEvent.HostRemoved("ch1", 500)), null);
    assertEquals(List.of("gpu2"), out.stream().map(n -> n.loanEnded().device()).toList(),
        "gpu1's loan, not in the rewritten journal, is gone");
    assertEquals(null, out.get(0).to(), "relearnt without its channel");
  }
}

package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.ControllerEvent;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Which channel goes to the backup with a loan's events. */
class BorrowerChannelsTest {

  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final GuestAddress CH2 = new GuestAddress("ch2",
      testKit.<MemoryEndpoint.Command>createTestProbe().ref(), testKit.<GuestCall>createTestProbe().ref());
  private static final GuestAddress CH3 = new GuestAddress("ch3",
      testKit.<MemoryEndpoint.Command>createTestProbe().ref(), testKit.<GuestCall>createTestProbe().ref());

  private final BorrowerChannels channels = new BorrowerChannels();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private static ControlPlaneHost.ClientRequest borrow(String device, String borrower, GuestAddress on) {
    return new ControlPlaneHost.ClientRequest(new Controller.Request(borrower, 1, new Controller.BorrowDevice(device,
        borrower, null, 0x60_0000_0000L, 1L << 30, 0, Controller.BorrowDevice.NO_MSI, 100, null)), on);
  }

  private static List<ControllerEvent> lent(String device, String borrower) {
    return List.of(new ControllerEvent.DeviceLent(device, borrower, null, 0, 0, 0, 100));
  }

  @Test
  void shouldHandTheBorrowsChannelWithItsLoanWhenAnotherHostAskedForTheSameDeviceSince() {
    channels.arrived(borrow("gpu1", "ch2", CH2));
    channels.arrived(borrow("gpu1", "ch3", CH3)); // refused by the controller: gpu1 goes to ch2
    assertEquals(CH2, channels.of(lent("gpu1", "ch2")));
    assertEquals(CH3, channels.of(lent("gpu1", "ch3")), "had ch3's borrow won, its own channel");
  }

  @Test
  void shouldHandAChannelOnceWhenALaterLoanOfThePairCameOnNone() {
    channels.arrived(borrow("gpu1", "ch2", CH2));
    assertEquals(CH2, channels.of(lent("gpu1", "ch2")));
    assertNull(channels.of(lent("gpu1", "ch2")), "the pair's next loan was asked for on no channel");
  }

  @Test
  void shouldHandNoChannelWhenTheEventsLendNothingOrTheBorrowCameOnNone() {
    channels.arrived(borrow("gpu1", "ch2", CH2));
    assertNull(channels.of(List.of(new ControllerEvent.HostRemoved("ch1", 5))));
    assertNull(channels.of(lent("gpu2", "ch2")), "gpu2's borrow did not come on a channel");
  }
}

package io.rackfabric.host.ftgm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.host.nic.SriovNic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class DaemonPeersTest {

  static final ActorTestKit testKit = ActorTestKit.create();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static GuestAddress address(String endpoint) {
    TestProbe<MemoryEndpoint.Command> ep = testKit.createTestProbe();
    TestProbe<GuestCall> guest = testKit.createTestProbe();
    return new GuestAddress(endpoint, ep.ref(), guest.ref());
  }

  @Test
  void shouldAddressTheCardsGuestOnItsEndpointAtTheStepsTimeWhenItsAddressIsKnown() {
    DaemonPeers peers = new DaemonPeers(address("mh"));
    assertTrue(peers.toCard(new SriovNic.ResetCard(5), 5).isEmpty(), "no address yet");

    GuestAddress card = address("nic");
    peers.cardAt(card);
    MemoryEndpoint.SendToPeer s = peers.toCard(new SriovNic.ResetCard(7), 7).orElseThrow();
    assertEquals(new MemoryEndpoint.SendToPeer("nic", card.endpointRef(), card.guest(), new SriovNic.ResetCard(7), 7),
        s);
  }

  @Test
  void shouldAddressEachVfsOwnerApartWhenSeveralAreKnown() {
    DaemonPeers peers = new DaemonPeers(address("mh"));
    GuestAddress ch1 = address("ch1");
    GuestAddress ch2 = address("ch2");
    peers.ownerAt(0, ch1);
    peers.ownerAt(1, ch2);
    SriovNic.ResetCard any = new SriovNic.ResetCard(0);
    assertEquals("ch1", peers.toOwner(0, any, 9).orElseThrow().peer());
    assertEquals("ch2", peers.toOwner(1, any, 9).orElseThrow().peer());
    assertTrue(peers.toOwner(2, any, 9).isEmpty());
    assertEquals("mh", peers.self().endpoint());
  }
}

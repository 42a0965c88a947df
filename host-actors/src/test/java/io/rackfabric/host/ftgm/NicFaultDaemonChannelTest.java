package io.rackfabric.host.ftgm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.GuestPeer;
import io.rackfabric.fabric.endpoint.InboundAccessCheck;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.time.JoinKeeper;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.host.nic.SriovNic;
import io.rackfabric.host.nic.UdpSender;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The NIC's fault-tolerance daemon under the model-time kernel, as a guest of the MH's endpoint:
 * its commands reach the card's guest, and FAULT_DETECTED the VF owner's, each as a model-time
 * event of the receiving endpoint at its sending time plus the guest channel's lookahead; the
 * answers come back the same way, and nothing reaches an endpoint behind its clock.
 *
 * <p>Three links that nothing joins: mh (root, the daemon's) - mhdev, nicrc - nic (the card's
 * endpoint), ch (root, the VF owner's) - chdev; guest channels mh-nic and mh-ch.
 */
class NicFaultDaemonChannelTest {

  static final ActorTestKit testKit = ActorTestKit.create(ConfigFactory.parseString(
      "akka.actor.serialize-messages = on\n"
          + "rackfabric.fabric.link-timers { keepalive = 50ms, dllp-timeout = 400ms, retry-interval = 100ms }")
      .withFallback(ConfigFactory.load()));
  static final FabricSettings FABRIC = FabricSettings.create(testKit.system().settings().config());
  static final FtgmSettings FTGM = FtgmSettings.create(testKit.system().settings().config());
  static final long LOOKAHEAD = 1_000;
  static final long MSI = 0x8000;
  static final Duration WAIT = Duration.ofSeconds(10);

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static ActorRef<MemoryEndpoint.Command> endpoint(String id, int bdf, boolean root, long base, String partner,
      List<GuestPeer> peers) {
    return testKit.spawn(MemoryEndpoint.create(id, bdf, root, List.of(new AddressRange(base, base + 0xF_FFFFL)),
        LinkParameters.gen3x4(), partner, FABRIC, InboundAccessCheck.allowAll(), peers), id);
  }

  static void awaitActive(ActorRef<MemoryEndpoint.Command> ep) {
    TestProbe<EndpointStats> probe = testKit.createTestProbe();
    probe.awaitAssert(WAIT, () -> {
      ep.tell(new MemoryEndpoint.GetStats(probe.ref()));
      assertEquals(DataLinkState.DL_ACTIVE, probe.receiveMessage().link().state());
      return null;
    });
  }

  /** A call to {@code guest}'s probe carrying a {@code type} from a peer; returns the call. */
  static <T> GuestCall.FromPeer fromPeer(TestProbe<GuestCall> guest, Class<T> type) {
    GuestCall.FromPeer got = assertInstanceOf(GuestCall.FromPeer.class, guest.receiveMessage(WAIT));
    assertInstanceOf(type, got.payload());
    return got;
  }

  @Test
  void shouldPutEveryCommandAndNotificationIntoTheModelAtItsSendingTimePlusTheLookaheadWithNoStraggler() {
    ActorRef<MemoryEndpoint.Command> mh = endpoint("d1mh", Bdf.of(0, 0, 0), true, 0, "d1mhdev",
        List.of(new GuestPeer("d1nic", LOOKAHEAD), new GuestPeer("d1ch", LOOKAHEAD)));
    ActorRef<MemoryEndpoint.Command> mhDev = endpoint("d1mhdev", Bdf.of(1, 0, 0), false, 0x4000_0000L, "d1mh",
        List.of());
    ActorRef<MemoryEndpoint.Command> nicRc = endpoint("d1nicrc", Bdf.of(0, 0, 0), true, 0, "d1nic", List.of());
    ActorRef<MemoryEndpoint.Command> nic = endpoint("d1nic", Bdf.of(2, 0, 0), false, 0x4000_0000L, "d1nicrc",
        List.of(new GuestPeer("d1mh", LOOKAHEAD)));
    ActorRef<MemoryEndpoint.Command> ch = endpoint("d1ch", Bdf.of(0, 0, 0), true, 0, "d1chdev",
        List.of(new GuestPeer("d1mh", LOOKAHEAD)));
    ActorRef<MemoryEndpoint.Command> chDev = endpoint("d1chdev", Bdf.of(3, 0, 0), false, 0x4000_0000L, "d1ch",
        List.of());
    List<ActorRef<MemoryEndpoint.Command>> all = List.of(mh, mhDev, nicRc, nic, ch, chDev);
    all.forEach(NicFaultDaemonChannelTest::awaitActive);
    List<String> names = new ArrayList<>();
    all.forEach(e -> names.add(e.path().name()));
    ActorRef<TimeKeeper.Command> keeper = testKit.spawn(TimeKeeper.create(Set.copyOf(names)), "d1keeper");
    all.forEach(e -> e.<PortMessage>unsafeUpcast().tell(new JoinKeeper(keeper)));
    TestProbe<TimeKeeper.Status> status = testKit.createTestProbe();
    keeper.tell(new TimeKeeper.AwaitIdle(status.ref()));
    assertEquals(all.size(), status.receiveMessage(WAIT).joined());

    // The card's and the owner's guests are probes on their endpoints.
    TestProbe<GuestCall> cardGuest = testKit.createTestProbe();
    nic.tell(new MemoryEndpoint.AttachGuest(cardGuest.ref(), List.of()));
    assertEquals(new GuestCall.Attached(true), cardGuest.receiveMessage(WAIT));
    TestProbe<GuestCall> ownerGuest = testKit.createTestProbe();
    ch.tell(new MemoryEndpoint.AttachGuest(ownerGuest.ref(), List.of()));
    assertEquals(new GuestCall.Attached(true), ownerGuest.receiveMessage(WAIT));

    TestProbe<SriovNic.Command> card = testKit.createTestProbe();
    ActorRef<NicFaultDaemon.Command> daemon = testKit.spawn(
        NicFaultDaemon.create("d1card", card.ref(), mh, MSI, FTGM), "d1ftd");
    daemon.tell(new NicFaultDaemon.SetMode(io.rackfabric.host.nic.McpMode.FTGM));
    card.expectMessageClass(SriovNic.SetInterrupt.class, WAIT);
    // The card gives its address only after the interrupt came: the daemon's call waits for it.
    SriovNic.GetGuestAddress cardAsked = card.expectMessageClass(SriovNic.GetGuestAddress.class, WAIT);
    TestProbe<UdpSender.Command> owner = testKit.createTestProbe();
    daemon.tell(new NicFaultDaemon.OpenVf(0, 1, 0, owner.ref()));
    owner.expectMessageClass(UdpSender.GetGuestAddress.class, WAIT).replyTo()
        .tell(GuestAddress.of(ch, ownerGuest.ref()));

    // The watchdog's MSI-X write enters the held rack at 5 us, as a run driver's input would.
    TestProbe<TimeKeeper.Status> held = testKit.createTestProbe();
    keeper.tell(new TimeKeeper.HoldBefore(1, held.ref()));
    held.receiveMessage(WAIT);
    mhDev.tell(new MemoryEndpoint.Write(MSI, new byte[] {1, 0, 0, 0}, 5_000));
    TestProbe<TimeKeeper.Confirmed> confirmed = testKit.createTestProbe();
    mhDev.<PortMessage>unsafeUpcast().tell(new TimeKeeper.Confirm(confirmed.ref()));
    confirmed.receiveMessage(WAIT);
    keeper.tell(new TimeKeeper.Release());
    cardGuest.expectNoMessage(Duration.ofMillis(200));
    cardAsked.replyTo().tell(GuestAddress.of(nic, cardGuest.ref()));

    // The magic word: written when the daemon woke, on the card one lookahead later.
    GuestCall.FromPeer check = fromPeer(cardGuest, SriovNic.CheckMagicWord.class);
    SriovNic.CheckMagicWord c = (SriovNic.CheckMagicWord) check.payload();
    assertTrue(c.writtenAt() > 5_000 + FTGM.interruptLatencyNs(), "woken at " + c.writtenAt());
    assertEquals(c.writtenAt() + LOOKAHEAD, check.at());
    assertEquals("d1mh", check.from());
    assertEquals(FTGM.magicWordWaitNs(), c.readAt() - c.writtenAt());
    // The card answers at the read, on the channel back: the hang is confirmed then.
    nic.tell(c.replyTo().send(new SriovNic.MagicWord(false, c.readAt(), 1_000), c.readAt()));
    nic.tell(new MemoryEndpoint.GuestDone(check.call()));

    // Reset, reload, tables: each sent at its step (the reset in the answer's call, one lookahead
    // after the read), each on the card one lookahead after it was sent.
    long answered = c.readAt() + LOOKAHEAD;
    GuestCall.FromPeer reset = fromPeer(cardGuest, SriovNic.ResetCard.class);
    assertEquals(c.readAt(), ((SriovNic.ResetCard) reset.payload()).at());
    assertEquals(answered + LOOKAHEAD, reset.at());
    nic.tell(new MemoryEndpoint.GuestDone(reset.call()));
    GuestCall.FromPeer reload = fromPeer(cardGuest, SriovNic.ReloadFirmware.class);
    long reloaded = ((SriovNic.ReloadFirmware) reload.payload()).at();
    assertEquals(c.readAt() + FTGM.cardResetNs() + FTGM.mcpReloadNs(), reloaded);
    assertEquals(reloaded + LOOKAHEAD, reload.at());
    nic.tell(new MemoryEndpoint.GuestDone(reload.call()));
    GuestCall.FromPeer tables = fromPeer(cardGuest, SriovNic.RestoreVfs.class);
    SriovNic.RestoreVfs restored = (SriovNic.RestoreVfs) tables.payload();
    assertEquals(List.of(new SriovNic.VfEntry(0, 1, 0)), restored.vfs());
    assertEquals(restored.at() + LOOKAHEAD, tables.at());
    nic.tell(new MemoryEndpoint.GuestDone(tables.call()));

    // FAULT_DETECTED on the owner's endpoint; its reopening back on the MH's.
    GuestCall.FromPeer detected = fromPeer(ownerGuest, UdpSender.FaultDetected.class);
    UdpSender.FaultDetected f = (UdpSender.FaultDetected) detected.payload();
    assertEquals(restored.at() + FTGM.faultEventPostNs(), f.at());
    assertEquals(f.at() + LOOKAHEAD, detected.at());
    long reopenAt = f.at() + f.handlerNs();
    ch.tell(f.replyTo().send(new UdpSender.PortReopened("d1tx", 0, f.at(), reopenAt, 0, 0), reopenAt));
    ch.tell(new MemoryEndpoint.GuestDone(detected.call()));

    TestProbe<NicFaultDaemon.NicRecoveries> recoveries = testKit.createTestProbe();
    NicFaultDaemon.NicRecoveries r = recoveries.awaitAssert(WAIT, () -> {
      daemon.tell(new NicFaultDaemon.GetRecoveries(recoveries.ref()));
      NicFaultDaemon.NicRecoveries got = recoveries.receiveMessage();
      assertEquals(1, got.breakdowns().size());
      return got;
    });
    assertTrue(r.events().contains(new RecoveryEvent(c.readAt(), "d1card", RecoveryEvent.HANG_CONFIRMED, -1,
        "magic word still set")), "events " + r.events());
    assertEquals(List.of(reopenAt), r.breakdowns().get(0).portsRecoveredAt());
    card.expectNoMessage(Duration.ofMillis(100)); // nothing went to the card outside the channel

    keeper.tell(new TimeKeeper.AwaitIdle(status.ref()));
    TimeKeeper.Status s = status.receiveMessage(WAIT);
    assertEquals(0, s.stragglers(), "nothing reached an endpoint behind its clock");
  }
}

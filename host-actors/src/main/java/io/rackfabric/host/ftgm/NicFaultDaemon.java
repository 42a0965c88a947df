package io.rackfabric.host.ftgm;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.fabric.time.ModelClock;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.nic.McpFirmware;
import io.rackfabric.host.nic.McpMode;
import io.rackfabric.host.nic.PortEvent;
import io.rackfabric.host.nic.SriovNic;
import io.rackfabric.host.nic.UdpSender;
import io.rackfabric.persistence.controller.Controller;
import java.time.Duration;
import java.util.List;

/**
 * The fault-tolerance daemon for the rack's SR-IOV NIC, on the management host that owns its PF
 * (FTGM section 4.3 applied to {@link SriovNic}). The steps and their model times are those of
 * {@link FaultToleranceDaemon}; this actor is its driver: the NIC's watchdog interrupt arrives as
 * a posted MSI-X write in the MH's memory (watched on the MH's root endpoint, so the fabric's
 * latency is in it), the card's reset, reload, magic word and VF table go to the NIC's actor, and
 * FAULT_DETECTED goes to every open VF's owner (a CH's {@link UdpSender}).
 *
 * <p>It is a guest of the MH's root endpoint ({@link GuestCall}): the interrupt is a call, and so
 * is each answer (the magic word, a port reopened), sent on guest channels ({@link DaemonPeers}).
 * Inside those calls its commands and notifications go out on the same channels at their steps'
 * model times, so under the kernel each is an event of the receiving endpoint at its sending time
 * plus the channel's lookahead. It never holds a call for an answer that needs the fabric (the
 * card's endpoint is not granted past the MH's open call), only the interrupt's for the controller.
 *
 * <p>The VF table restored is the PF driver's own copy ({@link OpenVf}); with a control plane
 * ({@link UseController}) only the VFs the controller's state still lends are restored and
 * notified. The VF owners' handlers run one at a time through the PF driver (as the paper's port
 * handlers do through the device driver): the next one gets FAULT_DETECTED when the previous port
 * reopened, so per-port and total recovery follow the number of open VFs.
 *
 * <p>Every step carries its model time in the messages, so the daemon runs each as soon as the
 * previous is known rather than waiting for a clock.
 */
public final class NicFaultDaemon extends AbstractBehavior<NicFaultDaemon.Command> {

  public sealed interface Command permits UseCard, OpenVf, SetMode, UseController, GetRecoveries, MsiLanded,
      Called, PeerFound, LentVfsRead {}

  /**
   * The page of the MH's memory the NIC's watchdog vector points at in a Ladon rack: the top 4 KiB
   * of the MH's first DRAM range (below the 32-bit MMIO hole), clear of the control page.
   */
  public static final long LADON_MSI_ADDRESS = 0xBFFF_F000L;

  /** The NIC this daemon looks after (its actor may run on another node); programs its vector. */
  public record UseCard(ActorRef<SriovNic.Command> card) implements Command, WireMessage {}

  /**
   * The PF driver lent VF {@code vf} to {@code owner} (requester matches as written to
   * VF_OWNER0/1): the MH's copy of the VF table, and whom to tell after a recovery.
   */
  public record OpenVf(int vf, int owner0, int owner1, ActorRef<UdpSender.Command> owner)
      implements Command, WireMessage {}

  /** The protocol of the next recovery: FTGM (host copies) or GM (reload only). */
  public record SetMode(McpMode mode) implements Command, WireMessage {}

  /** The master management host: the VFs to restore are those its controller's state lends. */
  public record UseController(ActorRef<ControlPlaneHost.Command> master) implements Command, WireMessage {}

  public record GetRecoveries(ActorRef<NicRecoveries> replyTo) implements Command, WireMessage {}

  /**
   * The record so far: every step ({@link RecoveryEvent}s in model-time order), the breakdown of
   * each finished recovery, and whether one is under way.
   */
  public record NicRecoveries(String nic, McpMode mode, List<RecoveryEvent> events,
      List<RecoveryBreakdown> breakdowns, boolean recovering) implements WireMessage {

    public NicRecoveries {
      events = List.copyOf(events);
      breakdowns = List.copyOf(breakdowns);
    }
  }

  private record MsiLanded(EndpointEvent event) implements Command, NoSerializationVerificationNeeded {}

  /** The MH's endpoint calls the daemon, its guest: the interrupt, or a peer's answer. */
  private record Called(GuestCall call) implements Command, NoSerializationVerificationNeeded {}

  /** The guest address of VF {@code vf}'s owner, or of the card ({@link #CARD}); null when it did not say. */
  private record PeerFound(int vf, GuestAddress address) implements Command, NoSerializationVerificationNeeded {}

  private static final int CARD = -1;

  private record LentVfsRead(Controller.CurrentState state, long interruptAt)
      implements Command, NoSerializationVerificationNeeded {}

  /** How long a peer's address or the controller's state is waited for (wall time). */
  private static final Duration ASK = Duration.ofSeconds(10);

  /** The steps carry their model times: each runs as soon as the one before it is known. */
  private static final ModelClock IMMEDIATE = new ImmediateClock();

  private final String nic;
  private ActorRef<SriovNic.Command> card;
  private final long msiAddress;
  private final FtgmSettings settings;
  private final FaultToleranceDaemon daemon;
  private final RackCard rackCard;
  private final VfCopy vfs = new VfCopy();
  private final NicRecoveryLog log;
  private final ActorRef<MemoryEndpoint.Command> mhEndpoint;
  private final DaemonPeers peers;
  private final VfNotifications lane = new VfNotifications();
  /**
   * The interrupt's call, held while the controller is asked for the lent VFs, or while a peer's
   * address is on its way; else null.
   */
  private GuestCall held;
  /** The interrupt whose call waits for a peer's address; else null. */
  private EndpointEvent waitingInterrupt;
  private McpMode mode;
  private ActorRef<ControlPlaneHost.Command> controller;

  /**
   * @param mhEndpoint the management host's root endpoint (the MSI-X write lands there)
   * @param msiAddress the watchdog vector's address in the MH's memory (the NIC's domain)
   * @param card the NIC, or null until {@link UseCard}
   */
  public static Behavior<Command> create(String nic, ActorRef<SriovNic.Command> card,
      ActorRef<MemoryEndpoint.Command> mhEndpoint, long msiAddress, FtgmSettings settings) {
    return Behaviors.setup(ctx -> new NicFaultDaemon(ctx, nic, card, mhEndpoint, msiAddress, settings));
  }

  private NicFaultDaemon(ActorContext<Command> context, String nic, ActorRef<SriovNic.Command> card,
      ActorRef<MemoryEndpoint.Command> mhEndpoint, long msiAddress, FtgmSettings settings) {
    super(context);
    this.nic = nic;
    this.msiAddress = msiAddress;
    this.settings = settings;
    this.mode = settings.mode();
    this.mhEndpoint = mhEndpoint;
    this.log = new NicRecoveryLog(nic);
    ActorRef<GuestCall> calls = context.messageAdapter(GuestCall.class, Called::new);
    this.peers = new DaemonPeers(GuestAddress.of(mhEndpoint, calls));
    this.rackCard = new RackCard(nic, this::toCard, vfs, peers.self());
    this.daemon = new FaultToleranceDaemon(rackCard, settings, IMMEDIATE, this::openPorts, log::add);
    ActorRef<EndpointEvent> msi = context.messageAdapter(EndpointEvent.class, MsiLanded::new);
    mhEndpoint.tell(new MemoryEndpoint.AttachGuest(calls, List.of(msi)));
    mhEndpoint.tell(new MemoryEndpoint.Watch(AddressRange.ofSize(msiAddress, 4), msi));
    if (card != null) {
      useCard(card);
    }
  }

  private void useCard(ActorRef<SriovNic.Command> nicCard) {
    card = nicCard;
    card.tell(new SriovNic.SetInterrupt(msiAddress, 1));
    peers.asked(CARD);
    getContext().ask(GuestAddress.class, card, ASK, SriovNic.GetGuestAddress::new,
        (address, failure) -> new PeerFound(CARD, address));
  }

  private Behavior<Command> onUseCard(UseCard msg) {
    if (!msg.card().equals(card)) {
      useCard(msg.card());
    }
    return this;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(UseCard.class, this::onUseCard)
        .onMessage(OpenVf.class, this::onOpenVf)
        .onMessage(SetMode.class, this::onSetMode)
        .onMessage(UseController.class, this::onUseController)
        .onMessage(GetRecoveries.class, this::onGetRecoveries)
        .onMessage(MsiLanded.class, this::onMsiLanded)
        .onMessage(Called.class, this::onCalled)
        .onMessage(PeerFound.class, this::onPeerFound)
        .onMessage(LentVfsRead.class, this::onLentVfsRead)
        .build();
  }

  private Behavior<Command> onOpenVf(OpenVf msg) {
    vfs.open(msg);
    peers.asked(msg.vf());
    getContext().ask(GuestAddress.class, msg.owner(), ASK, UdpSender.GetGuestAddress::new,
        (address, failure) -> new PeerFound(msg.vf(), address));
    return this;
  }

  private Behavior<Command> onPeerFound(PeerFound msg) {
    peers.answered(msg.vf());
    if (msg.address() == null) {
      getContext().getLog().warn("NIC [{}]: {} did not give its guest address; it is told directly", nic,
          msg.vf() == CARD ? "the card" : "VF " + msg.vf() + "'s owner");
    } else if (msg.vf() == CARD) {
      peers.cardAt(msg.address());
    } else {
      peers.ownerAt(msg.vf(), msg.address());
    }
    if (waitingInterrupt != null && !peers.awaiting()) {
      // The interrupt that came while an address was on its way goes on now, in its call.
      EndpointEvent event = waitingInterrupt;
      GuestCall call = held;
      waitingInterrupt = null;
      held = null;
      interrupted(event, call);
      if (held != call) {
        call.answer(mhEndpoint);
      }
    }
    return this;
  }

  /** A call of the MH's endpoint: answered once what it caused was sent, unless held for the controller. */
  private Behavior<Command> onCalled(Called msg) {
    GuestCall call = msg.call();
    if (call instanceof GuestCall.Event e && peers.awaiting()) {
      // Its commands would go astray: the call waits for the peers' addresses (onPeerFound).
      held = call;
      waitingInterrupt = e.event();
      return this;
    } else if (call instanceof GuestCall.Event e) {
      interrupted(e.event(), call);
    } else if (call instanceof GuestCall.FromPeer p && p.payload() instanceof SriovNic.MagicWord w) {
      magicWordRead(w);
    } else if (call instanceof GuestCall.FromPeer p && p.payload() instanceof UdpSender.PortReopened r) {
      reopened(r);
    } else if (call instanceof GuestCall.FromPeer p) {
      getContext().getLog().warn("NIC [{}]: the daemon ignores {} from [{}]", nic,
          p.payload() == null ? "null" : p.payload().getClass().getSimpleName(), p.from());
    }
    if (held != call) {
      call.answer(mhEndpoint);
    }
    return this;
  }

  private Behavior<Command> onSetMode(SetMode msg) {
    mode = msg.mode();
    return this;
  }

  private Behavior<Command> onUseController(UseController msg) {
    controller = msg.master();
    return this;
  }

  private Behavior<Command> onGetRecoveries(GetRecoveries msg) {
    msg.replyTo().tell(log.snapshot(mode, daemon.busy() || !lane.idle()));
    return this;
  }

  /** Not a guest's call: the endpoint tells the watch directly only if the daemon is not its guest. */
  private Behavior<Command> onMsiLanded(MsiLanded msg) {
    interrupted(msg.event(), null);
    return this;
  }

  /** The watchdog's MSI-X write landed; {@code call} (null outside one) is held while the controller answers. */
  private void interrupted(EndpointEvent event, GuestCall call) {
    if (!(event instanceof EndpointEvent.MemoryWritten w)) {
      return;
    }
    long at = w.arrivedAt();
    if (daemon.busy() || !lane.idle()) {
      getContext().getLog().warn("NIC [{}] interrupt at {} ns while a recovery is under way: ignored", nic, at);
      return;
    }
    log.interrupted(at);
    getContext().getLog().info("NIC [{}] watchdog interrupt reached the daemon at {} ns", nic, at);
    if (controller == null) {
      vfs.restoreAll();
      daemon.interrupted(McpFirmware.Interrupt.WATCHDOG, at);
    } else {
      held = call;
      getContext().ask(Controller.CurrentState.class, controller, ASK, ControlPlaneHost.GetControllerState::new,
          (state, failure) -> new LentVfsRead(failure == null ? state : null, at));
    }
  }

  private Behavior<Command> onLentVfsRead(LentVfsRead msg) {
    if (msg.state() == null) {
      getContext().getLog().warn("NIC [{}]: the controller did not answer; the MH's own VF copy is restored", nic);
      vfs.restoreAll();
    } else {
      vfs.restoreLent(msg.state().state().vfs(nic).keySet());
    }
    daemon.interrupted(McpFirmware.Interrupt.WATCHDOG, msg.interruptAt());
    if (held != null) {
      held.answer(mhEndpoint);
      held = null;
    }
    return this;
  }

  private void magicWordRead(SriovNic.MagicWord w) {
    if (w.hungAt() >= 0 && !w.cleared()) {
      log.hungAt(w.hungAt());
    }
    rackCard.magicWordAnswered(w.cleared());
    if (!daemon.busy() && w.cleared()) {
      getContext().getLog().info("NIC [{}]: magic word cleared, a false alarm", nic);
    }
  }

  private void reopened(UdpSender.PortReopened r) {
    log.reopened(r);
    lane.reopened(r.reopenedAt());
    notifyNext();
  }

  /** The VFs FAULT_DETECTED goes to: the copy's, less any the controller no longer lends. */
  private List<VfPort> openPorts() {
    return vfs.restored().stream().map(v -> new VfPort(v.vf())).toList();
  }

  private void notifyNext() {
    VfNotifications.Next next = lane.next();
    if (next == null) {
      if (lane.idle()) {
        finishRecovery();
      }
      return;
    }
    UdpSender.FaultDetected detected = new UdpSender.FaultDetected(next.at(), mode, settings.portHandlerNs(),
        settings.tokenRestoreNs(), peers.self());
    peers.toOwner(next.vf(), detected, next.at()).ifPresentOrElse(mhEndpoint::tell, () -> {
      getContext().getLog().warn("NIC [{}]: VF {}'s owner has no guest address yet; told directly", nic, next.vf());
      vfs.get(next.vf()).owner().tell(detected);
    });
  }

  /** {@code command} to the card at {@code at}, on the guest channel once the card's address is known. */
  private <C extends SriovNic.Command & WireMessage> void toCard(C command, long at) {
    peers.toCard(command, at).ifPresentOrElse(mhEndpoint::tell, () -> {
      getContext().getLog().warn("NIC [{}]: the card has no guest address yet; {} goes to it directly", nic,
          command.getClass().getSimpleName());
      card.tell(command);
    });
  }

  private void finishRecovery() {
    RecoveryBreakdown b = log.finish(mode, daemon.recoveries(), lane::takeReopenings);
    if (b == null) {
      return;
    }
    getContext().getLog().info("NIC [{}] recovered: {}", nic, b.render().trim());
  }

  /** An open VF as the daemon sees it: FAULT_DETECTED queued for its owner, handlers one at a time. */
  private final class VfPort implements FaultToleranceDaemon.Port {
    private final int vf;

    VfPort(int vf) {
      this.vf = vf;
    }

    @Override
    public int port() {
      return vf;
    }

    @Override
    public void deliver(PortEvent event, long at) {
      if (event instanceof PortEvent.FaultDetected) {
        lane.posted(vf, at);
        notifyNext();
      }
    }
  }
}

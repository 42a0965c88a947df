package io.rackfabric.host.nic;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.fabric.time.EventQueue;
import java.time.Duration;
import java.util.List;

/**
 * An SR-IOV Ethernet NIC (one PF, several VFs) behind its PCIe endpoint: the device logic of the
 * endpoint the topology puts on a switch TB port. It watches the endpoint's PF and VF register
 * BARs, does DMA through the endpoint's Read and Write commands (so descriptor and packet reads
 * cross the fabric and NTBs in model time), runs the {@link NicFirmware} loop, and puts frames on
 * its 10 GbE wire to an {@link ExternalReceiver}. Must run next to its endpoint.
 */
public final class SriovNic extends AbstractBehavior<SriovNic.Command> {

  public sealed interface Command permits ConnectWire, GetStats, ExpectStream, StreamEnded, RegisterWritten,
      DmaCompleted, HangFirmware, SetInterrupt, ResetCard, ReloadFirmware, RestoreVfs, CheckMagicWord, GetFtgmState,
      ClockTick, Called, GetGuestAddress {}

  // ------------------------------------------------------------------ FTGM (its paper's sections 4.2-4.3)

  /** Fault: the firmware loop hangs at model time {@code at} (L_timer stops with it). */
  public record HangFirmware(long at) implements Command, WireMessage {}

  /**
   * The PF driver programs the watchdog's MSI-X vector: on expiry the NIC posts {@code data} to
   * {@code address} (in the NIC's domain: the PF owner's memory) through the fabric.
   */
  public record SetInterrupt(long address, int data) implements Command, WireMessage {}

  /** The fault-tolerance daemon resets the card at {@code at}: firmware stopped, card memory cleared. */
  public record ResetCard(long at) implements Command, WireMessage {}

  /** The daemon has loaded the firmware; it starts at {@code at}. */
  public record ReloadFirmware(long at) implements Command, WireMessage {}

  /** One VF's table entry from the PF driver's copy: its owners ({@link RequesterMatch#encode}), enabled. */
  public record VfEntry(int vf, int owner0, int owner1) implements WireMessage {}

  /** The daemon restores the PF's VF table at {@code at}. */
  public record RestoreVfs(List<VfEntry> vfs, long at) implements Command, WireMessage {

    public RestoreVfs {
      vfs = List.copyOf(vfs);
    }
  }

  /**
   * The magic-word check: the daemon sets the word at {@code writtenAt} and reads it at {@code
   * readAt}; a running loop clears it at its next L_timer. The {@link MagicWord} goes back to
   * {@code replyTo} on the guest channel, sent at {@code readAt}.
   */
  public record CheckMagicWord(long writtenAt, long readAt, GuestAddress replyTo)
      implements Command, WireMessage {}

  /**
   * Where the card's guest is reached ({@link GuestAddress}): the fault-tolerance daemon sends its
   * commands there, each a model-time event of the NIC's endpoint ({@link GuestCall.FromPeer}).
   */
  public record GetGuestAddress(ActorRef<GuestAddress> replyTo) implements Command, WireMessage {}

  /** The word as read at {@code readAt}; {@code hungAt}: when the loop stopped, -1 if it runs. */
  public record MagicWord(boolean cleared, long readAt, long hungAt) implements WireMessage {}

  public record GetFtgmState(ActorRef<FtgmState> replyTo) implements Command, WireMessage {}

  /** The card's FTGM state, for tests and runs. */
  public record FtgmState(boolean loaded, boolean hung, long hungAt, long lTimerCalls, long lastLTimerAt,
      long watchdogDeadline, long interruptsRaised, long lastInterruptAt, long resets, long writesWhileDown,
      int eventsWaiting) implements WireMessage {}

  /** Wall tick while the loop is hung: the card's hardware clock (and its watchdog) runs on. */
  private enum ClockTick implements Command, NoSerializationVerificationNeeded { INSTANCE }

  /** Plugs the NIC's wire into a receiver (replacing any earlier one). */
  public record ConnectWire(ActorRef<ExternalReceiver.Command> receiver) implements Command, WireMessage {}

  public record GetStats(ActorRef<NicStats> replyTo) implements Command, WireMessage {}

  /**
   * VF {@code vf} will ring {@code count} doorbells, one per slot of {@code intervalNs} after
   * {@code startAt} at the earliest (its {@link SendPlan}): a free-running NIC serves the declared
   * streams' register writes in model-time order ({@link DoorbellOrder}); under the kernel its
   * endpoint hands them over in that order already.
   */
  public record ExpectStream(int vf, long startAt, long intervalNs, int count) implements Command, WireMessage {}

  /** VF {@code vf}'s declared stream rings no more doorbells. */
  public record StreamEnded(int vf) implements Command, WireMessage {}

  // From the endpoint, through adapters: local only.
  private record RegisterWritten(EndpointEvent event) implements Command, NoSerializationVerificationNeeded {}

  private record DmaCompleted(MemoryEndpoint.ReadResult result) implements Command, NoSerializationVerificationNeeded {}

  /** The endpoint calls its guest (see {@link GuestCall}): the NIC answers once it has acted. */
  private record Called(GuestCall call) implements Command, NoSerializationVerificationNeeded {}

  private final String id;
  private final ActorRef<MemoryEndpoint.Command> endpoint;
  private final ActorRef<MemoryEndpoint.ReadResult> dmaReplies;
  private final NicFirmware firmware;
  private ActorRef<ExternalReceiver.Command> receiver;
  private final RegisterMap map;
  private final DoorbellOrder<EndpointEvent.MemoryWritten> order = new DoorbellOrder<>();
  private long unconnected;
  private final HungClock hungClock;
  private long msiAddress;
  private int msiData;
  private long interruptsRaised;
  private long lastInterruptAt = -1;
  private final ActorRef<GuestCall> calls;
  private final TimerScheduler<Command> timers;

  /**
   * @param endpoint the NIC's PCIe endpoint
   * @param map its register layout ({@link RegisterMap#of} the endpoint's BARs)
   * @param pfOwner requester ID allowed to write PF registers: the root of the NIC's domain (the
   *     MH, 00:00.0 in the bundled topologies)
   * @param receiver the far end of the wire, or null until {@link ConnectWire}
   */
  public static Behavior<Command> create(String id, ActorRef<MemoryEndpoint.Command> endpoint, RegisterMap map,
      int pfOwner, NicSettings settings, ActorRef<ExternalReceiver.Command> receiver) {
    return create(id, endpoint, map, pfOwner, settings, receiver, null, 1.0);
  }

  /**
   * With FTGM's watchdog: {@code timing} (from {@code rackfabric.host.ftgm.mcp}) gives L_timer's
   * interval and the spare watchdog's; {@code tdf} paces the hardware clock while the loop is hung.
   */
  public static Behavior<Command> create(String id, ActorRef<MemoryEndpoint.Command> endpoint, RegisterMap map,
      int pfOwner, NicSettings settings, ActorRef<ExternalReceiver.Command> receiver, McpTiming timing, double tdf) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
        new SriovNic(ctx, timers, id, endpoint, map, pfOwner, settings, receiver, timing, tdf)));
  }

  private SriovNic(ActorContext<Command> context, TimerScheduler<Command> timers, String id,
      ActorRef<MemoryEndpoint.Command> endpoint, RegisterMap map, int pfOwner, NicSettings settings,
      ActorRef<ExternalReceiver.Command> receiver, McpTiming timing, double tdf) {
    super(context);
    this.timers = timers;
    this.id = id;
    this.endpoint = endpoint;
    this.receiver = receiver;
    this.dmaReplies = context.messageAdapter(MemoryEndpoint.ReadResult.class, DmaCompleted::new);
    this.calls = context.messageAdapter(GuestCall.class, Called::new);
    this.map = map;
    Hardware hardware = new Hardware();
    this.firmware = timing == null ? new NicFirmware(map, pfOwner, settings, hardware)
        : new NicFirmware(map, pfOwner, settings, hardware, timing, new EventQueue());
    this.hungClock = new HungClock(firmware, timing, tdf, hardware);
    firmware.boot(0);
    ActorRef<EndpointEvent> registers = context.messageAdapter(EndpointEvent.class, RegisterWritten::new);
    endpoint.tell(new MemoryEndpoint.AttachGuest(calls, List.of(registers, dmaReplies)));
    endpoint.tell(new MemoryEndpoint.Watch(map.pfBar(), registers));
    endpoint.tell(new MemoryEndpoint.Watch(map.vfRegion(), registers));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(RegisterWritten.class, this::onRegisterWritten)
        .onMessage(DmaCompleted.class, this::onDmaCompleted)
        .onMessage(ConnectWire.class, this::onConnectWire)
        .onMessage(GetStats.class, this::onGetStats)
        .onMessage(ExpectStream.class, this::onExpectStream)
        .onMessage(StreamEnded.class, this::onStreamEnded)
        .onMessage(HangFirmware.class, this::onHangFirmware)
        .onMessage(SetInterrupt.class, this::onSetInterrupt)
        .onMessage(ResetCard.class, this::onResetCard)
        .onMessage(ReloadFirmware.class, this::onReloadFirmware)
        .onMessage(RestoreVfs.class, this::onRestoreVfs)
        .onMessage(CheckMagicWord.class, this::onCheckMagicWord)
        .onMessage(GetFtgmState.class, this::onGetFtgmState)
        .onMessage(ClockTick.class, this::onClockTick)
        .onMessage(Called.class, this::onCalled)
        .onMessage(GetGuestAddress.class, this::onGetGuestAddress)
        .build();
  }

  private Behavior<Command> onCalled(Called msg) {
    GuestCall call = msg.call();
    if (call instanceof GuestCall.Event e) {
      onRegisterWritten(new RegisterWritten(e.event()));
    } else if (call instanceof GuestCall.ReadDone r) {
      onDmaCompleted(new DmaCompleted(r.result()));
    } else if (call instanceof GuestCall.Wake w) {
      hungClock.woke(w.at(), w.token()); // only the hung clock asks for wakes
    } else if (call instanceof GuestCall.FromPeer p && p.payload() instanceof Command daemonCommand) {
      onDaemonCommand(daemonCommand); // the MH's daemon, on the guest channel: at its model time
    } else if (call instanceof GuestCall.Attached a) {
      onAttached(a.underKernel());
    }
    call.answer(endpoint);
    return this;
  }

  /**
   * Under the kernel the endpoint hands the card its register writes in model-time order: each is
   * served at once, never held for another stream's doorbell ({@link DoorbellOrder}), which would
   * stamp the DMA it starts in the endpoint's past.
   */
  private void onAttached(boolean underKernel) {
    hungClock.underKernel(underKernel);
    if (underKernel) {
      serve(order.passAll());
    }
  }

  /** What the fault-tolerance daemon may send on the guest channel; anything else is refused. */
  private void onDaemonCommand(Command c) {
    if (c instanceof ResetCard r) {
      onResetCard(r);
    } else if (c instanceof ReloadFirmware r) {
      onReloadFirmware(r);
    } else if (c instanceof RestoreVfs r) {
      onRestoreVfs(r);
    } else if (c instanceof CheckMagicWord m) {
      onCheckMagicWord(m);
    } else {
      getContext().getLog().warn("NIC [{}] ignores {} from a guest peer", id, c.getClass().getSimpleName());
    }
  }

  private Behavior<Command> onGetGuestAddress(GetGuestAddress msg) {
    msg.replyTo().tell(GuestAddress.of(endpoint, calls));
    return this;
  }

  private Behavior<Command> onRegisterWritten(RegisterWritten msg) {
    if (msg.event() instanceof EndpointEvent.MemoryWritten w) {
      RegisterMap.Touched t = map.touched(w.address(), w.data());
      serve(order.arrived(w, t.vf(), t.doorbell(), w.arrivedAt()));
    }
    return this;
  }

  private Behavior<Command> onExpectStream(ExpectStream msg) {
    if (msg.vf() < 0 || msg.vf() >= map.vfCount() || msg.intervalNs() <= 0 || msg.count() < 0) {
      getContext().getLog().warn("NIC [{}] ignores stream vf={} interval={} count={}: out of range", id, msg.vf(),
          msg.intervalNs(), msg.count());
      return this;
    }
    order.expect(msg.vf(), msg.startAt(), msg.intervalNs(), msg.count());
    return this;
  }

  private Behavior<Command> onStreamEnded(StreamEnded msg) {
    serve(order.ended(msg.vf()));
    return this;
  }

  private void serve(List<EndpointEvent.MemoryWritten> writes) {
    for (EndpointEvent.MemoryWritten w : writes) {
      firmware.registerWritten(w.address(), w.data(), w.requester(), w.arrivedAt());
    }
    hungClock.whenStalled();
  }

  private Behavior<Command> onDmaCompleted(DmaCompleted msg) {
    MemoryEndpoint.ReadResult r = msg.result();
    firmware.dmaCompleted(r.address(), r.status() == CompletionStatus.SUCCESSFUL, r.data(), r.latencyNs());
    hungClock.whenStalled();
    return this;
  }

  private Behavior<Command> onHangFirmware(HangFirmware msg) {
    if (!hungClock.hasWatchdog()) {
      getContext().getLog().warn("NIC [{}] has no watchdog (no FTGM timing): hang at {} ns ignored", id, msg.at());
      return this;
    }
    long at = hungClock.hang(msg.at());
    getContext().getLog().info("NIC [{}] firmware loop hangs at {} ns", id, at);
    return this;
  }

  private Behavior<Command> onClockTick(ClockTick msg) {
    hungClock.wallTick();
    return this;
  }

  private Behavior<Command> onSetInterrupt(SetInterrupt msg) {
    msiAddress = msg.address();
    msiData = msg.data();
    return this;
  }

  private Behavior<Command> onResetCard(ResetCard msg) {
    hungClock.reset();
    firmware.reset(msg.at());
    getContext().getLog().info("NIC [{}] card reset at {} ns", id, msg.at());
    return this;
  }

  private Behavior<Command> onReloadFirmware(ReloadFirmware msg) {
    firmware.reload(msg.at());
    return this;
  }

  private Behavior<Command> onRestoreVfs(RestoreVfs msg) {
    for (VfEntry e : msg.vfs()) {
      if (e.vf() < 0 || e.vf() >= map.vfCount()) {
        getContext().getLog().warn("NIC [{}] ignores restored vf={}: not in [0,{})", id, e.vf(), map.vfCount());
        continue;
      }
      firmware.restoreVf(e.vf(), RequesterMatch.decode(e.owner0()), RequesterMatch.decode(e.owner1()), msg.at());
    }
    return this;
  }

  private Behavior<Command> onCheckMagicWord(CheckMagicWord msg) {
    firmware.writeMagicWord(msg.writtenAt());
    firmware.advanceClock(msg.readAt());
    endpoint.tell(msg.replyTo().send(new MagicWord(firmware.magicWordCleared(), msg.readAt(), firmware.hungAt()),
        msg.readAt()));
    return this;
  }

  private Behavior<Command> onGetFtgmState(GetFtgmState msg) {
    msg.replyTo().tell(new FtgmState(firmware.loaded(), firmware.hung(), firmware.hungAt(), firmware.lTimerCalls(),
        firmware.lastLTimerAt(), firmware.watchdogDeadline(), interruptsRaised, lastInterruptAt, firmware.resets(),
        firmware.writesWhileDown(), firmware.queuedEvents()));
    return this;
  }

  private Behavior<Command> onConnectWire(ConnectWire msg) {
    receiver = msg.receiver();
    return this;
  }

  private Behavior<Command> onGetStats(GetStats msg) {
    msg.replyTo().tell(firmware.stats(id, unconnected).withHeldForOrder(order.held()));
    return this;
  }

  /** The card's DMA engine, MAC and interrupt, and its hardware clock's ticks while it is hung. */
  private final class Hardware implements NicFirmware.Hardware, HungClock.Ticks {
    @Override
    public void dmaRead(long address, int length, long at) {
      endpoint.tell(new MemoryEndpoint.Read(address, length, at, dmaReplies));
    }

    @Override
    public void dmaWrite(long address, byte[] data, long at) {
      endpoint.tell(new MemoryEndpoint.Write(address, data, at));
    }

    @Override
    public void transmit(int vf, byte[] frame, EthernetLink.Transmission tx) {
      if (receiver == null) {
        unconnected++;
        return;
      }
      receiver.tell(new ExternalReceiver.DeliverFrame(
          new EthernetFrame(id, vf, frame, tx.wireBytes(), tx.startAt(), tx.arrivesAt())));
    }

    @Override
    public void interrupt(long at) {
      hungClock.interrupted();
      interruptsRaised++;
      lastInterruptAt = at;
      if (msiAddress == 0) {
        getContext().getLog().warn("NIC [{}] watchdog ran out at {} ns, but no interrupt vector is programmed", id, at);
        return;
      }
      getContext().getLog().info("NIC [{}] watchdog ran out at {} ns: MSI-X to the PF's owner", id, at);
      endpoint.tell(new MemoryEndpoint.Write(msiAddress, RegisterMap.dwords(msiData), at));
    }

    @Override
    public void wakeAt(long at, long token) {
      endpoint.tell(new MemoryEndpoint.WakeGuest(calls, at, token));
    }

    @Override
    public void startWallTicks(Duration every) {
      timers.startTimerAtFixedRate(ClockTick.INSTANCE, every);
    }

    @Override
    public void stopWallTicks() {
      timers.cancel(ClockTick.INSTANCE);
    }
  }
}

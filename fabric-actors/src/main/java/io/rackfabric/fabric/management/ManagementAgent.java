package io.rackfabric.fabric.management;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.tlp.FabricMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A device manager on the fabric: what a switch chip or an endpoint does with the management
 * packets that reach it as {@link FabricMessage}s (AS-FM section 3.2). A PI-4 read is answered from
 * the device's configuration space with a read completion, with data or with error, back along the
 * reverse path with the request's traffic class; a PI-4 write takes effect and is not answered; a
 * local port's change of state becomes a PI-5 event once the fabric manager has programmed where
 * events go, sent back along the path that programming write came by. Plain: the actor gives it
 * the model time and puts what it returns on the wire.
 */
public final class ManagementAgent {

  /** What the agent did, for the device's statistics. */
  public record Counts(long readsAnswered, long errorsAnswered, long writesApplied, long writesIgnored,
      long strays, long eventsSent) {}

  /**
   * A PI-4 write to port {@code port}'s control register changed its activate bit: the port is to
   * go to DL_Active ({@code active}) or back to DL_Protected (AS-FM section 2.2). The device's
   * actor carries it out on the port's link.
   */
  public record PortOrder(int port, boolean active) {}

  /**
   * A PI-4 write to NTB port {@code port}'s window header ({@link NtbWindowCapability}) made its
   * windows {@code linkBars} and {@code virtualBars}: the chip routes and translates by them from
   * then on.
   */
  public record WindowOrder(int port, List<NtbBar> linkBars, List<NtbBar> virtualBars) {

    public WindowOrder {
      linkBars = List.copyOf(linkBars);
      virtualBars = List.copyOf(virtualBars);
    }
  }

  private final DeviceManager manager;
  private final ElectionFlood flood;
  /** The way back to the fabric manager that programmed the event route; null until then. */
  private List<Integer> eventTurns;
  private long readsAnswered;
  private long errorsAnswered;
  private long writesApplied;
  private long writesIgnored;
  private long strays;
  private long eventsSent;
  private final List<PortOrder> orders = new ArrayList<>();
  private final List<WindowOrder> windowOrders = new ArrayList<>();
  /** Every path-table header write applied: when the device came to hold each distribution whole. */
  private final List<PathTableHeld.Held> held = new ArrayList<>();
  /** A header write was applied since {@link #takeTableHeld} last looked. */
  private boolean tableHeld;

  public ManagementAgent(DeviceManager manager) {
    this.manager = manager;
    this.flood = new ElectionFlood(manager.space());
  }

  public static ManagementAgent of(DeviceDescription device) {
    return new ManagementAgent(new DeviceManager(ConfigurationSpace.of(device)));
  }

  /**
   * A switch chip's: each NTB port of {@code ntbPorts} (by number) gets its window capability with
   * the windows it starts with ({@link ConfigurationSpace#loadNtbWindows}).
   */
  public static ManagementAgent of(DeviceDescription device, java.util.Map<Integer, NtbConfig> ntbPorts) {
    ConfigurationSpace space = ConfigurationSpace.of(device);
    ntbPorts.forEach((port, ntb) -> space.loadNtbWindows(port, ntb.linkBars(), ntb.virtualBars()));
    return new ManagementAgent(new DeviceManager(space));
  }

  /**
   * {@code message}, for this device, came in through port {@code ingress}: the answer to send at
   * model {@code at}, if any. Packets a device manager does not take (a completion, an event: those
   * are for the fabric manager) are counted as strays and dropped.
   */
  public Optional<FabricMessage> onArrival(FabricMessage message, int ingress, long at) {
    io.rackfabric.fabric.tlp.MessagePayload packet = message.packet();
    if (packet instanceof Pi4ReadRequest read) {
      Pi4ReadCompletion c = manager.onRead(read, ingress);
      return Optional.of(answer(c, message, ingress, at));
    }
    if (packet instanceof Pi4Write write) {
      if (applyWrite(write, at) && write.aperture() == 0 && write.offset() >= EventRouteCapability.OFFSET
          && write.offset() < EventRouteCapability.OFFSET + 0x100 && manager.space().eventRoute().route() != null) {
        eventTurns = message.replyTurns(ingress);
      }
      return Optional.empty();
    }
    strays++;
    return Optional.empty();
  }

  /**
   * Applies a PI-4 write (from the fabric, or the fabric manager's own to its own device) at model
   * {@code at}: true when it took effect; a change of a port's activate bit becomes a
   * {@link PortOrder}, a path table's header is noted as held at {@code at}.
   */
  public boolean applyWrite(Pi4Write write, long at) {
    ConfigurationSpace space = manager.space();
    int ports = space.device().ports().size();
    boolean[] before = new boolean[ports];
    for (int p = 0; p < ports; p++) {
      before[p] = space.activationRequested(p);
    }
    if (manager.onWrite(write) != WriteOutcome.APPLIED) {
      writesIgnored++;
      return false;
    }
    writesApplied++;
    if (PathTableCapability.isHeader(write)) {
      held.add(new PathTableHeld.Held(space.pathTable().generation(), at));
      tableHeld = true;
    }
    for (int p = 0; p < ports; p++) {
      if (space.activationRequested(p) != before[p]) {
        order(p, !before[p]);
      }
    }
    for (NtbWindowCapability w : space.ntbWindows()) {
      if (w.takeChanged()) {
        windowOrders.add(new WindowOrder(w.port(), w.linkBars(), w.virtualBars()));
      }
    }
    return true;
  }

  /**
   * An election claim flooded to this device came in through {@code ingress} at model {@code at}:
   * one copy for each port it goes on through ({@link ElectionFlood}), none when it changed
   * nothing here.
   */
  public List<FabricMessage> onClaim(FabricMessage message, int ingress, long at) {
    ElectionClaim claim = (ElectionClaim) message.packet();
    List<FabricMessage> out = new ArrayList<>();
    for (int port : flood.onClaim(claim, ingress, at)) {
      out.add(FabricMessage.send(claim, List.of(port), at));
    }
    return out;
  }

  /** The device's part in the election. */
  public ElectionFlood flood() {
    return flood;
  }

  /**
   * {@code message} came in through {@code ingress} but cannot go on ({@code why}: its next turn
   * names a port that does not exist or leads nowhere): a read is answered with error, as a device
   * at the end of its route would, anything else is dropped and counted.
   */
  public Optional<FabricMessage> onUnroutable(FabricMessage message, int ingress, String why, long at) {
    if (message.packet() instanceof Pi4ReadRequest read) {
      return Optional.of(answer(read.answer(ReadResult.failed(why)), message, ingress, at));
    }
    strays++;
    return Optional.empty();
  }

  /**
   * The port's record takes the ordered state at once (a trained port only: DL_Protected and
   * DL_Active swap, nothing else), so the port's own report of it later is no change and no PI-5
   * event: the fabric manager ordered it and knows.
   */
  private void order(int port, boolean active) {
    ConfigurationSpace space = manager.space();
    DataLinkState state = space.portState(port);
    if (active && state == DataLinkState.DL_PROTECTED) {
      space.setPortState(port, DataLinkState.DL_ACTIVE, space.peerState(port));
    } else if (!active && state == DataLinkState.DL_ACTIVE) {
      space.setPortState(port, DataLinkState.DL_PROTECTED, space.peerState(port));
    }
    orders.add(new PortOrder(port, active));
  }

  /** The port orders the writes handled since the last call, oldest first; the list is then empty. */
  public List<PortOrder> takeOrders() {
    return drain(orders);
  }

  /** The window orders the writes handled since the last call, oldest first; the list is then empty. */
  public List<WindowOrder> takeWindowOrders() {
    return drain(windowOrders);
  }

  /** What {@code pending} holds, oldest first; then it is empty. */
  static <T> List<T> drain(List<T> pending) {
    if (pending.isEmpty()) {
      return List.of();
    }
    List<T> out = List.copyOf(pending);
    pending.clear();
    return out;
  }

  private FabricMessage answer(Pi4ReadCompletion c, FabricMessage request, int ingress, long at) {
    if (c.result().ok()) {
      readsAnswered++;
    } else {
      errorsAnswered++;
    }
    return FabricMessage.send(c, request.replyTurns(ingress), at);
  }

  /**
   * Local port {@code port} is now in {@code state} (model {@code at}): its record follows, and the
   * PI-5 event to send when that is a change and the fabric manager has programmed the event route.
   */
  public Optional<FabricMessage> onPortState(int port, DataLinkState state, long at) {
    if (port < 0 || port >= manager.space().device().ports().size()) {
      return Optional.empty();
    }
    Optional<Pi5Event> event = manager.onPortState(port, state, state);
    if (event.isEmpty() || eventTurns == null) {
      return Optional.empty();
    }
    eventsSent++;
    return Optional.of(FabricMessage.send(event.get(), eventTurns, at));
  }

  /**
   * The path table this device holds, when a header write (a distribution held whole) was applied
   * since the last call; empty otherwise. For the device's own software, which applies it.
   */
  public Optional<PathTable> takeTableHeld() {
    if (!tableHeld) {
      return Optional.empty();
    }
    tableHeld = false;
    ConfigurationSpace space = manager.space();
    return Optional.of(space.pathTable().table(space.device().serial()));
  }

  /** The path table this device holds; null for a switch, which holds none. */
  public PathTableHeld pathTable() {
    ConfigurationSpace space = manager.space();
    PathTableCapability t = space.pathTable();
    return t == null ? null
        : new PathTableHeld(t.table(space.device().serial()), t.generation(), held, space.malformedWrites());
  }

  public DeviceManager manager() {
    return manager;
  }

  public Counts counts() {
    return new Counts(readsAnswered, errorsAnswered, writesApplied, writesIgnored, strays, eventsSent);
  }
}

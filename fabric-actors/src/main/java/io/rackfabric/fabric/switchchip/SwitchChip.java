package io.rackfabric.fabric.switchchip;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.fabric.control.ControlOrigins;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.management.DeviceDescription;
import io.rackfabric.fabric.management.ManagementAgent;
import io.rackfabric.fabric.ntb.RequesterIdEntry;
import io.rackfabric.fabric.ntb.NtbDirection;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.wire.WireMessage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A switch chip: parent of its port actors and owner of the chip-wide routing state. A change to
 * one port's registers or a virtual-switch reassignment becomes a new immutable routing table
 * that every port receives. Routing state survives reassignment untouched (Ladon section 4.3.1).
 */
public final class SwitchChip extends AbstractBehavior<SwitchChip.Command> {

  public sealed interface Command
      permits PortConfigured, NtbReprogrammed, NtbWindowsWritten, ReassignPorts, GetRoutingTable, PortRef, ProgramRequesterId,
          Synchronize {}

  /** Every port of the chip joins the run's time keeper (see {@link io.rackfabric.fabric.time.JoinKeeper}). */
  public record Synchronize(ActorRef<io.rackfabric.fabric.time.TimeKeeper.Command> keeper)
      implements Command, WireMessage {}

  /** A port's registers changed through a configuration write. */
  record PortConfigured(PortConfig config) implements Command, NoSerializationVerificationNeeded {}

  /**
   * A port programmed an entry of its NTB's requester-ID table: added to the port's configuration
   * here, so that entries programmed in a row, or a reassignment in between, are never undone.
   */
  record NtbReprogrammed(int number, RequesterIdEntry entry)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * The chip's device manager applied a fabric manager's write of an NTB port's windows; every port
   * took them in model time already ({@link SwitchPort.SetWindows}), so the chip's table takes them
   * without publishing, and later tables carry them.
   */
  record NtbWindowsWritten(io.rackfabric.fabric.management.ManagementAgent.WindowOrder order)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * Programs an NTB port's requester-ID table entry (see {@link SwitchPort.ProgramRequesterId});
   * the port answers. A port number that is missing or not an NTB port is answered here with
   * {@link SwitchPort.RequesterIdRejected}.
   */
  public record ProgramRequesterId(
      int port, NtbDirection direction, int requester, ActorRef<SwitchPort.RequesterIdReply> replyTo)
      implements Command, WireMessage {}

  /**
   * Moves ports to another virtual switch, as the management host does by writing the chip's
   * partition registers; replies with the new table once every port has the change queued. With
   * {@code effectiveAt} at or above 0 each port routes by the new table from that model time on
   * (see {@link TableInForce}); the sender must make sure no port's clock passes it before the
   * ports have it (the taking-over host does it inside its endpoint's call). {@link #AT_ONCE}:
   * every port adopts it when it arrives (the boot, before any traffic).
   */
  public record ReassignPorts(List<Integer> ports, int virtualSwitch, long effectiveAt,
      ActorRef<RoutingTable> replyTo) implements Command, WireMessage {

    /** No model time: in force at each port when it arrives. */
    public static final long AT_ONCE = -1;

    public ReassignPorts {
      if (effectiveAt < AT_ONCE) {
        throw new IllegalArgumentException("effectiveAt=" + effectiveAt + " ns is negative (AT_ONCE is -1)");
      }
    }

    /** In force at once ({@link #AT_ONCE}). */
    public ReassignPorts(List<Integer> ports, int virtualSwitch, ActorRef<RoutingTable> replyTo) {
      this(ports, virtualSwitch, AT_ONCE, replyTo);
    }
  }

  public record GetRoutingTable(ActorRef<RoutingTable> replyTo) implements Command, WireMessage {}

  /** Asks for the actor of one port (by number); replies with null if there is none. */
  public record PortRef(int number, ActorRef<PortReply> replyTo) implements Command, WireMessage {}

  public record PortReply(int number, ActorRef<SwitchPort.Command> port) implements WireMessage {}

  /** How one port is wired: its link and the end name of its partner (null: connect by hand). */
  public record PortLink(int number, LinkParameters params, String partnerEnd) {}

  private final String id;
  private final Map<Integer, ActorRef<SwitchPort.Command>> ports = new HashMap<>();
  private RoutingTable table;

  public static Behavior<Command> create(
      String id, RoutingTable table, List<PortLink> links, FabricSettings settings) {
    return create(id, table, links, settings, null);
  }

  /**
   * As above, with the chip's device manager answering management packets from {@code device}'s
   * configuration space (null: none). Its lowest-numbered port hosts it ({@link PortManagement}).
   */
  public static Behavior<Command> create(
      String id, RoutingTable table, List<PortLink> links, FabricSettings settings, DeviceDescription device) {
    return Behaviors.setup(ctx -> new SwitchChip(ctx, id, table, links, settings, device));
  }

  private SwitchChip(
      ActorContext<Command> context,
      String id,
      RoutingTable table,
      List<PortLink> links,
      FabricSettings settings,
      DeviceDescription device) {
    super(context);
    this.id = id;
    this.table = table;
    int managerPort = device == null ? -1
        : links.stream().mapToInt(PortLink::number).min().orElse(-1);
    for (PortLink l : links) {
      PortConfig p = table.port(l.number());
      if (p == null) {
        throw new IllegalArgumentException("switch " + id + " has no port number " + l.number());
      }
      ports.put(l.number(), context.spawn(
          SwitchPort.create(id, l.number(), table, l.params(), l.partnerEnd(), settings, context.getSelf(),
              l.number() == managerPort ? ManagementAgent.of(device, ntbPorts(table, device, context)) : null,
              managerPort),
          p.name()));
    }
    SwitchPort.Siblings siblings = new SwitchPort.Siblings(Map.copyOf(ports));
    ports.values().forEach(p -> p.tell(siblings));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(PortConfigured.class, this::onPortConfigured)
        .onMessage(NtbReprogrammed.class, this::onNtbReprogrammed)
        .onMessage(NtbWindowsWritten.class, this::onNtbWindowsWritten)
        .onMessage(ProgramRequesterId.class, this::onProgramRequesterId)
        .onMessage(ReassignPorts.class, this::onReassignPorts)
        .onMessage(GetRoutingTable.class, this::onGetRoutingTable)
        .onMessage(PortRef.class, this::onPortRef)
        .onMessage(Synchronize.class, this::onSynchronize)
        .build();
  }

  private Behavior<Command> onSynchronize(Synchronize msg) {
    io.rackfabric.fabric.time.JoinKeeper join = new io.rackfabric.fabric.time.JoinKeeper(msg.keeper());
    ports.values().forEach(p -> p.<io.rackfabric.fabric.link.PortMessage>unsafeUpcast().tell(join));
    return this;
  }

  /**
   * The chip's NTB ports that its device describes, by number, with the windows they start with; a
   * port with more windows on a side than the capability holds gets none (its file's windows stay).
   */
  private static Map<Integer, io.rackfabric.fabric.ntb.NtbConfig> ntbPorts(RoutingTable table, DeviceDescription device,
      ActorContext<Command> context) {
    Map<Integer, io.rackfabric.fabric.ntb.NtbConfig> out = new java.util.TreeMap<>();
    int max = io.rackfabric.fabric.management.NtbWindows.MAX_PER_SIDE;
    for (PortConfig p : table.ports()) {
      if (p.role() != PortRole.NTB || p.number() >= device.ports().size()) {
        continue;
      }
      if (p.ntb().linkBars().size() > max || p.ntb().virtualBars().size() > max) {
        context.getLog().warn("Switch [{}] NTB port {} has link-bars={}, virtual-bars={} (at most {} a side):"
            + " no window capability, the fabric manager cannot write its windows", device.id(), p.name(),
            p.ntb().linkBars().size(), p.ntb().virtualBars().size(), max);
        continue;
      }
      out.put(p.number(), p.ntb());
    }
    return out;
  }

  /** The ids the ports of a chip join a time keeper under: "switchId.portName". */
  public static List<String> memberIds(String switchId, RoutingTable table, List<PortLink> links) {
    List<String> ids = new java.util.ArrayList<>();
    for (PortLink l : links) {
      ids.add(switchId + "." + table.port(l.number()).name());
    }
    return ids;
  }

  private Behavior<Command> onPortConfigured(PortConfigured msg) {
    // The writing port last: it answers the write once it has the table, and by then every other
    // port has the table queued before anything that answer can cause.
    table = table.withPort(msg.config());
    SwitchPort.TableChanged changed = new SwitchPort.TableChanged(table);
    ports.forEach((n, p) -> {
      if (n != msg.config().number()) {
        p.tell(changed);
      }
    });
    ActorRef<SwitchPort.Command> writer = ports.get(msg.config().number());
    if (writer != null) {
      writer.tell(changed);
    }
    return this;
  }

  private Behavior<Command> onNtbReprogrammed(NtbReprogrammed msg) {
    PortConfig p = table.port(msg.number());
    if (p != null && p.role() == PortRole.NTB && !p.ntb().requesterIds().contains(msg.entry())) {
      try {
        publish(table.withPort(p.withNtb(p.ntb().withRequesterId(msg.entry()))));
      } catch (IllegalArgumentException e) {
        // A configured entry the port could not place holds that index: the port's table wins.
        getContext().getLog().warn("Switch [{}] port {}: {}", id, p.name(), e.getMessage());
      }
    }
    return this;
  }

  private Behavior<Command> onNtbWindowsWritten(NtbWindowsWritten msg) {
    PortConfig p = table.port(msg.order().port());
    if (p != null && p.role() == PortRole.NTB) {
      table = table.withPort(p.withNtb(p.ntb().withBars(msg.order().linkBars(), msg.order().virtualBars())));
    }
    return this;
  }

  private Behavior<Command> onProgramRequesterId(ProgramRequesterId msg) {
    PortConfig p = table.port(msg.port());
    ActorRef<SwitchPort.Command> ref = ports.get(msg.port());
    if (p == null || ref == null || p.role() != PortRole.NTB) {
      String reason = p == null ? "switch " + id + " has no port number=" + msg.port()
          : ref == null ? "port " + p.name() + " of switch " + id + " is not running"
          : "port " + p.name() + " (number=" + msg.port() + ") of switch " + id + " is "
              + p.role() + ", not an NTB port";
      msg.replyTo().tell(new SwitchPort.RequesterIdRejected(
          p == null ? id + "." + msg.port() : id + "." + p.name(), msg.direction(), msg.requester(), reason));
      return this;
    }
    ref.tell(new SwitchPort.ProgramRequesterId(msg.direction(), msg.requester(), msg.replyTo()));
    return this;
  }

  private Behavior<Command> onReassignPorts(ReassignPorts msg) {
    // A partition change (the backup management host fences the master with it): from the run's
    // driver, this node, or a node of the management hosts only.
    if (!ControlOrigins.admitsConfiguration(getContext(), id, msg, msg.replyTo())) {
      return this;
    }
    RoutingTable next = table;
    List<Integer> moved = new java.util.ArrayList<>();
    for (int n : msg.ports()) {
      PortConfig p = next.port(n);
      if (p != null) {
        next = next.withPort(p.withVirtualSwitch(msg.virtualSwitch()));
        moved.add(n);
      } else {
        getContext().getLog().warn("Switch [{}] has no port {} to reassign", id, n);
      }
    }
    if (msg.effectiveAt() == ReassignPorts.AT_ONCE) {
      publish(next);
    } else {
      // The chip's table is the latest; each port holds the move until its clock reaches it.
      table = next;
      SwitchPort.PortsReassigned change = new SwitchPort.PortsReassigned(List.copyOf(moved),
          msg.virtualSwitch(), msg.effectiveAt());
      ports.values().forEach(p -> p.tell(change));
    }
    msg.replyTo().tell(next);
    return this;
  }

  private void publish(RoutingTable next) {
    table = next;
    SwitchPort.TableChanged changed = new SwitchPort.TableChanged(next);
    ports.values().forEach(p -> p.tell(changed));
  }

  private Behavior<Command> onGetRoutingTable(GetRoutingTable msg) {
    msg.replyTo().tell(table);
    return this;
  }

  private Behavior<Command> onPortRef(PortRef msg) {
    msg.replyTo().tell(new PortReply(msg.number(), ports.get(msg.number())));
    return this;
  }
}

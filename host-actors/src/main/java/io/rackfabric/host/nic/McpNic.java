package io.rackfabric.host.nic;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.time.EventQueue;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A NIC running message firmware as an actor: {@link McpFirmware}'s loop with its own model clock
 * (an {@link EventQueue} that L_timer and the watchdog are scheduled on), its host DMA going
 * through the fabric: a send DMA is a memory read of the send buffer from the owning host's
 * memory through the NIC's {@link MemoryEndpoint}; a receive DMA is a posted write into the
 * receive buffer followed by a read of it, which PCIe orders behind the write, so the read's
 * completion is the model time the message is in host memory (the commit point of FTGM section 4.1).
 *
 * <p>Model time: every command carries its model time; the clock first runs what was due before
 * it (L_timer calls, the watchdog), then the firmware takes the command at that time. {@link
 * AdvanceTo} moves the clock on without other input (a hung loop is noticed only this way).
 * Packets, port events and interrupts go to the {@code outputs} actor with their model times.
 */
public final class McpNic extends AbstractBehavior<McpNic.Command> {

  public sealed interface Command {}

  /** Card reset, firmware load, tables, and the given ports opened, at {@code at}. */
  public record Boot(Set<Integer> ports, Set<String> routes, long at)
      implements Command, NoSerializationVerificationNeeded {}

  /** gm_send from the host library. */
  public record PostSend(SendToken token, long at) implements Command, NoSerializationVerificationNeeded {}

  /** gm_provide_receive_buffer from the host library. */
  public record ProvideReceive(ReceiveToken token, long at) implements Command, NoSerializationVerificationNeeded {}

  /** A packet from the link. */
  public record PacketArrived(McpPacket packet, long at) implements Command, NoSerializationVerificationNeeded {}

  /** Arms a fault at a point of the firmware. */
  public record Inject(FaultCategory category, FaultPoint point) implements Command, NoSerializationVerificationNeeded {}

  /** Runs the card's clock up to {@code at}: L_timer calls and the watchdog due by then. */
  public record AdvanceTo(long at) implements Command, NoSerializationVerificationNeeded {}

  public record GetStatus(ActorRef<Status> replyTo) implements Command, NoSerializationVerificationNeeded {}

  public record Status(long now, boolean loaded, boolean hung, long lTimerCalls, Set<Integer> openPorts,
      int unacknowledged) implements NoSerializationVerificationNeeded {}

  /** What the card does towards the outside, each at its model time. */
  public sealed interface Output {}

  public record Transmitted(McpPacket packet, long at) implements Output, NoSerializationVerificationNeeded {}

  public record Posted(int port, PortEvent event, long at) implements Output, NoSerializationVerificationNeeded {}

  public record Interrupted(McpFirmware.Interrupt cause, long at) implements Output, NoSerializationVerificationNeeded {}

  /** A DMA of the firmware's ended (the fabric's answer came), or could not be done. */
  private record DmaDone(long tag, long at, CompletionStatus status) implements Command,
      NoSerializationVerificationNeeded {}

  private final EventQueue clock = new EventQueue();
  private final McpFirmware firmware;
  private final ActorRef<MemoryEndpoint.Command> endpoint;
  private final ActorRef<Output> outputs;
  private long dmaFailures;
  /** The DMAs out, {tag, issued at}, by the host address each reads. */
  private final Map<Long, Deque<long[]>> outstanding = new HashMap<>();
  private final ActorRef<MemoryEndpoint.ReadResult> answers;

  public static Behavior<Command> create(String name, McpMode mode, McpTiming timing,
      ActorRef<MemoryEndpoint.Command> endpoint, ActorRef<Output> outputs) {
    return Behaviors.setup(ctx -> new McpNic(ctx, name, mode, timing, endpoint, outputs));
  }

  private McpNic(ActorContext<Command> context, String name, McpMode mode, McpTiming timing,
      ActorRef<MemoryEndpoint.Command> endpoint, ActorRef<Output> outputs) {
    super(context);
    this.answers = context.messageAdapter(MemoryEndpoint.ReadResult.class, this::answered);
    this.endpoint = endpoint;
    this.outputs = outputs;
    this.firmware = new McpFirmware(name, mode, timing, clock, new Fabric(), new Outputs());
  }

  /** The firmware's DMA engine on the fabric, its packet interface towards {@code outputs}. */
  private final class Fabric implements McpFirmware.Hardware {
    @Override
    public void dma(long tag, boolean toHost, long hostAddress, int length, long at) {
      // A send's and a receive's DMA can be out at once: each answer is matched to its DMA by the
      // address it read (first out, first answered per address), through the one adapter, so the
      // answers keep the endpoint's order.
      outstanding.computeIfAbsent(hostAddress, a -> new ArrayDeque<>()).add(new long[] {tag, at});
      if (toHost) {
        endpoint.tell(new MemoryEndpoint.Write(hostAddress, new byte[Math.max(1, length)], at));
        endpoint.tell(new MemoryEndpoint.Read(hostAddress, Math.min(4, Math.max(1, length)), at, answers));
      } else {
        endpoint.tell(new MemoryEndpoint.Read(hostAddress, Math.max(1, length), at, answers));
      }
    }

    @Override
    public void transmit(McpPacket packet, long at) {
      outputs.tell(new Transmitted(packet, at));
    }
  }

  private final class Outputs implements McpFirmware.Host {
    @Override
    public void post(int port, PortEvent event, long at) {
      outputs.tell(new Posted(port, event, at));
    }

    @Override
    public void interrupt(McpFirmware.Interrupt cause, long at) {
      outputs.tell(new Interrupted(cause, at));
    }
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Boot.class, this::onBoot)
        .onMessage(PostSend.class, this::onPostSend)
        .onMessage(ProvideReceive.class, this::onProvideReceive)
        .onMessage(PacketArrived.class, this::onPacketArrived)
        .onMessage(Inject.class, this::onInject)
        .onMessage(AdvanceTo.class, this::onAdvanceTo)
        .onMessage(GetStatus.class, this::onGetStatus)
        .onMessage(DmaDone.class, this::onDmaDone)
        .build();
  }

  /** Runs what is due before {@code at} and sets the clock to it. */
  private void catchUp(long at) {
    clock.runUntil(Math.max(clock.now(), at));
  }

  private Behavior<Command> onBoot(Boot msg) {
    catchUp(msg.at());
    firmware.reset(msg.at());
    firmware.reload(msg.at());
    firmware.restoreTables(msg.ports(), msg.routes(), msg.at());
    msg.ports().forEach(p -> firmware.openPort(p, msg.at()));
    return this;
  }

  private Behavior<Command> onPostSend(PostSend msg) {
    catchUp(msg.at());
    firmware.postSend(msg.token(), msg.at());
    return this;
  }

  private Behavior<Command> onProvideReceive(ProvideReceive msg) {
    catchUp(msg.at());
    firmware.provideReceive(msg.token(), msg.at());
    return this;
  }

  private Behavior<Command> onPacketArrived(PacketArrived msg) {
    catchUp(msg.at());
    firmware.packetArrived(msg.packet(), msg.at());
    return this;
  }

  private Behavior<Command> onInject(Inject msg) {
    firmware.inject(msg.category(), msg.point());
    return this;
  }

  private Behavior<Command> onAdvanceTo(AdvanceTo msg) {
    catchUp(msg.at());
    return this;
  }

  private Behavior<Command> onGetStatus(GetStatus msg) {
    msg.replyTo().tell(new Status(firmware.now(), firmware.loaded(), firmware.hung(), firmware.lTimerCalls(),
        firmware.openPorts(), firmware.unacknowledged()));
    return this;
  }

  /** The DMA an answer belongs to; an answer for no DMA out (tag -1) is counted as failed. */
  private DmaDone answered(MemoryEndpoint.ReadResult r) {
    Deque<long[]> q = outstanding.get(r.address());
    long[] dma = q == null ? null : q.poll();
    if (q != null && q.isEmpty()) {
      outstanding.remove(r.address());
    }
    return dma == null ? new DmaDone(-1, 0, CompletionStatus.UNSUPPORTED_REQUEST)
        : new DmaDone(dma[0], dma[1] + r.latencyNs(), r.status());
  }

  private Behavior<Command> onDmaDone(DmaDone msg) {
    if (msg.status() != CompletionStatus.SUCCESSFUL) {
      dmaFailures++;
      getContext().getLog().warn("NIC [{}] DMA tag [{}] failed: {} ({} so far)", firmware.node(), msg.tag(),
          msg.status(), dmaFailures);
      return this; // the message stays unsent or unacknowledged: Go-Back-N resends it
    }
    catchUp(msg.at());
    firmware.dmaCompleted(msg.tag(), msg.at());
    return this;
  }
}

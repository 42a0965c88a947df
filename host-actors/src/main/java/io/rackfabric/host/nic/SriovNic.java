package io.rackfabric.host.nic;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.wire.WireMessage;
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
      DmaCompleted {}

  /** Plugs the NIC's wire into a receiver (replacing any earlier one). */
  public record ConnectWire(ActorRef<ExternalReceiver.Command> receiver) implements Command, WireMessage {}

  public record GetStats(ActorRef<NicStats> replyTo) implements Command, WireMessage {}

  /**
   * VF {@code vf} will ring {@code count} doorbells, one per slot of {@code intervalNs} after
   * {@code startAt} at the earliest (its {@link SendPlan}): the NIC serves the declared streams'
   * register writes in model-time order ({@link DoorbellOrder}).
   */
  public record ExpectStream(int vf, long startAt, long intervalNs, int count) implements Command, WireMessage {}

  /** VF {@code vf}'s declared stream rings no more doorbells. */
  public record StreamEnded(int vf) implements Command, WireMessage {}

  // From the endpoint, through adapters: local only.
  private record RegisterWritten(EndpointEvent event) implements Command, NoSerializationVerificationNeeded {}

  private record DmaCompleted(MemoryEndpoint.ReadResult result) implements Command, NoSerializationVerificationNeeded {}

  private final String id;
  private final ActorRef<MemoryEndpoint.Command> endpoint;
  private final ActorRef<MemoryEndpoint.ReadResult> dmaReplies;
  private final NicFirmware firmware;
  private ActorRef<ExternalReceiver.Command> receiver;
  private final RegisterMap map;
  private final DoorbellOrder<EndpointEvent.MemoryWritten> order = new DoorbellOrder<>();
  private long unconnected;

  /**
   * @param endpoint the NIC's PCIe endpoint
   * @param map its register layout ({@link RegisterMap#of} the endpoint's BARs)
   * @param pfOwner requester ID allowed to write PF registers: the root of the NIC's domain (the
   *     MH, 00:00.0 in the bundled topologies)
   * @param receiver the far end of the wire, or null until {@link ConnectWire}
   */
  public static Behavior<Command> create(String id, ActorRef<MemoryEndpoint.Command> endpoint, RegisterMap map,
      int pfOwner, NicSettings settings, ActorRef<ExternalReceiver.Command> receiver) {
    return Behaviors.setup(ctx -> new SriovNic(ctx, id, endpoint, map, pfOwner, settings, receiver));
  }

  private SriovNic(ActorContext<Command> context, String id, ActorRef<MemoryEndpoint.Command> endpoint,
      RegisterMap map, int pfOwner, NicSettings settings, ActorRef<ExternalReceiver.Command> receiver) {
    super(context);
    this.id = id;
    this.endpoint = endpoint;
    this.receiver = receiver;
    this.dmaReplies = context.messageAdapter(MemoryEndpoint.ReadResult.class, DmaCompleted::new);
    this.map = map;
    this.firmware = new NicFirmware(map, pfOwner, settings, new Hardware());
    ActorRef<EndpointEvent> registers = context.messageAdapter(EndpointEvent.class, RegisterWritten::new);
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
        .build();
  }

  private Behavior<Command> onRegisterWritten(RegisterWritten msg) {
    if (msg.event() instanceof EndpointEvent.MemoryWritten w) {
      int vf = -1;
      boolean doorbell = false;
      try {
        for (RegisterMap.Access a : map.decode(w.address(), w.data())) {
          if (!a.register().pf()) {
            vf = a.vf();
            doorbell |= a.register() == RegisterMap.Register.TDT;
          }
        }
      } catch (IllegalArgumentException malformed) {
        // the firmware counts it; it constrains no stream
      }
      serve(order.arrived(w, vf, doorbell, w.arrivedAt()));
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
  }

  private Behavior<Command> onDmaCompleted(DmaCompleted msg) {
    MemoryEndpoint.ReadResult r = msg.result();
    firmware.dmaCompleted(r.address(), r.status() == CompletionStatus.SUCCESSFUL, r.data(), r.latencyNs());
    return this;
  }

  private Behavior<Command> onConnectWire(ConnectWire msg) {
    receiver = msg.receiver();
    return this;
  }

  private Behavior<Command> onGetStats(GetStats msg) {
    msg.replyTo().tell(firmware.stats(id, unconnected));
    return this;
  }

  private final class Hardware implements NicFirmware.Hardware {
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
  }
}

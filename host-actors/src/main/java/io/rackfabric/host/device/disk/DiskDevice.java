package io.rackfabric.host.device.disk;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.host.device.MsixTable;
import io.rackfabric.host.device.Pcie;
import java.util.List;

/**
 * An NVMe-like disk behind its PCIe endpoint: registers in BAR0 ({@link DiskRegisters}), one I/O
 * queue pair in host memory ({@link DiskQueues}), a command engine ({@link DiskEngine}) and its
 * blocks ({@link DiskBlocks}). A guest of its endpoint: every register write, read completion and
 * media wake is a call, and the disk answers it only once it has sent what the call caused
 * (fetches, data, completion entries, MSI-X messages, the status it keeps in BAR0), so a command's
 * TLPs enter the model at the times the engine stamps. Free-running it works the same, its wakes
 * due at once. Must run next to its endpoint.
 */
public final class DiskDevice extends AbstractBehavior<DiskDevice.Command> {

  public sealed interface Command permits GetStats, Called, ReadReturned {}

  public record GetStats(ActorRef<DiskStats> replyTo) implements Command, WireMessage {}

  /** The disk's counters and STATUS register ({@link DiskRegisters}), for runs and tests. */
  public record DiskStats(String id, long completed, long failed, long refused, long fetchFailures, long tlps,
      int status, long blocksWritten) implements WireMessage {}

  /** The endpoint calls its guest (see {@link GuestCall}). */
  private record Called(GuestCall call) implements Command, NoSerializationVerificationNeeded {}

  /** A read result told directly, not in a call: refused by the endpoint before it left (no tag, link down). */
  private record ReadReturned(MemoryEndpoint.ReadResult result) implements Command, NoSerializationVerificationNeeded {}

  private final String id;
  private final ActorRef<MemoryEndpoint.Command> endpoint;
  private final DiskRegisters registers;
  private final DiskBlocks blocks;
  private final DiskEngine engine;
  private final ActorRef<GuestCall> calls;
  private final ActorRef<MemoryEndpoint.ReadResult> readReplies;

  /**
   * @param endpoint the disk's PCIe endpoint, whose BAR0 is {@code bars.registers()}
   * @param maxPayload the fabric's Max_Payload_Size: the largest write the disk issues
   */
  public static Behavior<Command> create(String id, ActorRef<MemoryEndpoint.Command> endpoint, DiskBars bars,
      DiskSettings settings, int maxPayload) {
    return Behaviors.setup(ctx -> new DiskDevice(ctx, id, endpoint, bars, settings, maxPayload));
  }

  private DiskDevice(ActorContext<Command> context, String id, ActorRef<MemoryEndpoint.Command> endpoint,
      DiskBars bars, DiskSettings settings, int maxPayload) {
    super(context);
    this.id = id;
    this.endpoint = endpoint;
    this.registers = new DiskRegisters(bars.registers().base());
    this.blocks = new DiskBlocks(settings.capacityBlocks());
    this.engine = new DiskEngine(settings, maxPayload, blocks, new EndpointBus());
    this.calls = context.messageAdapter(GuestCall.class, Called::new);
    this.readReplies = context.messageAdapter(MemoryEndpoint.ReadResult.class, ReadReturned::new);
    ActorRef<EndpointEvent> writes = context.messageAdapter(EndpointEvent.class, e -> new Called(
        new GuestCall.Event(0, e))); // never told directly: the endpoint calls its guest instead
    endpoint.tell(new MemoryEndpoint.AttachGuest(calls, List.of(writes, readReplies)));
    endpoint.tell(new MemoryEndpoint.Watch(bars.registers(), writes));
    publish();
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Called.class, this::onCalled)
        .onMessage(ReadReturned.class, this::onReadReturned)
        .onMessage(GetStats.class, this::onGetStats)
        .build();
  }

  private Behavior<Command> onCalled(Called msg) {
    GuestCall call = msg.call();
    if (call instanceof GuestCall.Event e && e.event() instanceof EndpointEvent.MemoryWritten w) {
      registerWritten(w);
    } else if (call instanceof GuestCall.ReadDone r) {
      readCompleted(r.result());
    } else if (call instanceof GuestCall.Wake w) {
      engine.wake(w.token(), w.at());
    }
    publish();
    call.answer(endpoint);
    return this;
  }

  private void registerWritten(EndpointEvent.MemoryWritten w) {
    DiskRegisters.Written written = registers.written(w.address(), w.data());
    if (written.refused()) {
      getContext().getLog().info("Disk [{}] refused a register write of {} bytes at 0x{}: {}", id,
          w.data() == null ? 0 : w.data().length, Long.toHexString(w.address()), registers.error());
    }
    for (DiskRegisters.Action a : written.actions()) {
      DiskRegisters.Error e = act(a, w.arrivedAt());
      if (e != DiskRegisters.Error.NONE) {
        registers.refuse(e);
        getContext().getLog().info("Disk [{}] refused {} at {} ns: {}{}", id, a, w.arrivedAt(), e,
            a instanceof DiskRegisters.Enable en && e == DiskRegisters.Error.BAD_QUEUE ? " (" + DiskQueues.check(en) + ")" : "");
      }
    }
  }

  private DiskRegisters.Error act(DiskRegisters.Action a, long at) {
    if (a instanceof DiskRegisters.Enable e) {
      DiskRegisters.Error r = engine.enable(e);
      if (r == DiskRegisters.Error.NONE) {
        registers.enabled(true);
      }
      return r;
    }
    if (a instanceof DiskRegisters.Disable) {
      DiskRegisters.Error r = engine.disable();
      if (r == DiskRegisters.Error.NONE) {
        registers.enabled(false);
      }
      return r;
    }
    if (a instanceof DiskRegisters.SqTail t) {
      return engine.sqTailRung(t.value(), at);
    }
    return engine.cqHeadRung(((DiskRegisters.CqHead) a).value(), at);
  }

  private void readCompleted(MemoryEndpoint.ReadResult r) {
    DiskRegisters.Error e = engine.readDone(r.address(), r.issuedAt(), r.status() == CompletionStatus.SUCCESSFUL, r.data(),
        r.latencyNs());
    if (e != DiskRegisters.Error.NONE) {
      registers.failed(e);
      getContext().getLog().info("Disk [{}] could not fetch the command at 0x{}: {}", id,
          Long.toHexString(r.address()), r.status());
    }
  }

  private Behavior<Command> onReadReturned(ReadReturned msg) {
    readCompleted(msg.result());
    publish();
    return this;
  }

  /** STATUS and the counters into BAR0, where a driver's read sees them. */
  private void publish() {
    endpoint.tell(new MemoryEndpoint.Store(registers.readOnlyAddress(),
        registers.readOnlyImage(engine.completed(), engine.failed())));
  }

  private Behavior<Command> onGetStats(GetStats msg) {
    msg.replyTo().tell(new DiskStats(id, engine.completed(), engine.failed(), registers.refused(),
        engine.fetchFailures(), engine.tlps(), registers.status(), blocks.writtenBlocks()));
    return this;
  }

  /** The engine's TLPs and wakes as the endpoint's commands. */
  private final class EndpointBus implements DiskEngine.Bus {
    @Override
    public void write(long address, byte[] data, long at) {
      endpoint.tell(new MemoryEndpoint.Write(address, data, at));
    }

    @Override
    public void read(long address, int length, long at) {
      endpoint.tell(new MemoryEndpoint.Read(address, length, at, readReplies));
    }

    @Override
    public void wake(long token, long at) {
      endpoint.tell(new MemoryEndpoint.WakeGuest(calls, at, token));
    }

    @Override
    public void interrupt(long at) {
      MsixTable.Outcome o = registers.completionInterrupt();
      if (o instanceof MsixTable.Send send) {
        endpoint.tell(new MemoryEndpoint.Write(send.address(), Pcie.dword(send.data()), at));
      } else if (o instanceof MsixTable.Withheld w && w.reason() != MsixTable.Reason.MASKED) {
        // A masked vector is a driver's choice (and every vector's state before it is programmed).
        getContext().getLog().info("Disk [{}] sent no MSI-X message at {} ns: {}", id, at, w.detail());
      }
    }
  }
}

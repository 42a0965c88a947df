package io.rackfabric.host.device.gpu;

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
import java.util.List;

/**
 * A GPU-like device behind its PCIe endpoint: registers in BAR0 ({@link GpuRegisters}), device
 * memory in BAR1 (the endpoint's own), and a DMA copy engine ({@link DmaCopyEngine}). A guest of
 * its endpoint: every register write, read completion and setup wake is a call, and the device
 * answers it only once it has sent what the call caused (writes, reads, its MSI, the status it
 * keeps in BAR0), so a copy's TLPs enter the model at the times the engine stamps. Free-running
 * it works the same, its wakes due at once. Must run next to its endpoint.
 */
public final class GpuDevice extends AbstractBehavior<GpuDevice.Command> {

  public sealed interface Command permits GetStats, Called, SourceLoaded, ReadReturned {}

  public record GetStats(ActorRef<GpuStats> replyTo) implements Command, WireMessage {}

  /** The device's counters and STATUS register ({@link GpuRegisters}), for runs and tests. */
  public record GpuStats(String id, long copiesDone, long copiesFailed, long refused, long tlps, int status,
      long bytesDone) implements WireMessage {}

  /** The endpoint calls its guest (see {@link GuestCall}). */
  private record Called(GuestCall call) implements Command, NoSerializationVerificationNeeded {}

  /** Device memory's bytes for an out copy's writes (the endpoint's answer to a Peek). */
  private record SourceLoaded(byte[] data) implements Command, NoSerializationVerificationNeeded {}

  /** A read result told directly, not in a call: refused by the endpoint before it left (no tag, link down). */
  private record ReadReturned(MemoryEndpoint.ReadResult result) implements Command, NoSerializationVerificationNeeded {}

  private final String id;
  private final ActorRef<MemoryEndpoint.Command> endpoint;
  private final GpuRegisters registers;
  private final DmaCopyEngine engine;
  private final ActorRef<GuestCall> calls;
  private final ActorRef<MemoryEndpoint.ReadResult> readReplies;
  private final ActorRef<byte[]> loads;
  /** An out copy's source was asked for; the call that asked is kept open until it came. */
  private boolean loading;
  private GuestCall heldCall;

  /**
   * @param endpoint the device's PCIe endpoint, whose BARs are {@code bars}
   * @param maxPayload the fabric's Max_Payload_Size: the largest write the engine issues
   */
  public static Behavior<Command> create(String id, ActorRef<MemoryEndpoint.Command> endpoint, GpuBars bars,
      GpuSettings settings, int maxPayload) {
    return Behaviors.setup(ctx -> new GpuDevice(ctx, id, endpoint, bars, settings, maxPayload));
  }

  private GpuDevice(ActorContext<Command> context, String id, ActorRef<MemoryEndpoint.Command> endpoint,
      GpuBars bars, GpuSettings settings, int maxPayload) {
    super(context);
    this.id = id;
    this.endpoint = endpoint;
    this.registers = new GpuRegisters(bars.registers().base());
    this.engine = new DmaCopyEngine(bars.memory(), maxPayload, settings, new EndpointBus());
    this.calls = context.messageAdapter(GuestCall.class, Called::new);
    this.readReplies = context.messageAdapter(MemoryEndpoint.ReadResult.class, ReadReturned::new);
    this.loads = context.messageAdapter(byte[].class, SourceLoaded::new);
    ActorRef<EndpointEvent> writes = context.messageAdapter(EndpointEvent.class, e -> new Called(
        new GuestCall.Event(0, e))); // never told directly: the endpoint calls its guest instead
    endpoint.tell(new MemoryEndpoint.AttachGuest(calls, List.of(writes, readReplies)));
    endpoint.tell(new MemoryEndpoint.Watch(bars.registers(), writes));
    endpoint.tell(new MemoryEndpoint.Store(registers.readOnlyAddress(), registers.readOnlyImage()));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Called.class, this::onCalled)
        .onMessage(SourceLoaded.class, this::onSourceLoaded)
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
      engine.setupDone(w.token(), w.at());
    }
    if (loading && heldCall == null) {
      heldCall = call; // an out copy's source is on its way: its writes go out inside this call
      return this;
    }
    publishAndAnswer(call);
    return this;
  }

  private void registerWritten(EndpointEvent.MemoryWritten w) {
    GpuRegisters.Written written = registers.written(w.address(), w.data());
    if (written.refused()) {
      getContext().getLog().info("GPU [{}] refused a register write of {} bytes at 0x{}: {}", id,
          w.data() == null ? 0 : w.data().length, Long.toHexString(w.address()), registers.error());
    }
    if (written.doorbell() == null) {
      return;
    }
    DmaCopyEngine.Start start = engine.start(written.doorbell(), w.arrivedAt());
    if (start instanceof DmaCopyEngine.Started s) {
      registers.started();
      endpoint.tell(new MemoryEndpoint.WakeGuest(calls, s.firstTlpAt(), s.copy()));
    } else if (start instanceof DmaCopyEngine.Refused r) {
      registers.refuse(r.why());
      getContext().getLog().info("GPU [{}] refused a doorbell at {} ns ({}): {}", id, w.arrivedAt(),
          written.doorbell(), r.why());
    }
  }

  private void readCompleted(MemoryEndpoint.ReadResult r) {
    finished(engine.readDone(r.address(), r.status() == CompletionStatus.SUCCESSFUL, r.data(), r.latencyNs()));
  }

  private Behavior<Command> onSourceLoaded(SourceLoaded msg) {
    loading = false;
    finished(engine.sourceLoaded(msg.data()));
    GuestCall held = heldCall;
    heldCall = null;
    if (held != null) {
      publishAndAnswer(held);
    }
    return this;
  }

  private Behavior<Command> onReadReturned(ReadReturned msg) {
    readCompleted(msg.result());
    endpoint.tell(new MemoryEndpoint.Store(registers.readOnlyAddress(), registers.readOnlyImage()));
    return this;
  }

  /**
   * Where a copy stands in the registers; once it ended, the MSI, stamped at the end and so behind
   * the copy's writes on the link (STATUS reaches BAR0 as the call is answered, before any MSI lands).
   */
  private void finished(DmaCopyEngine.Finished f) {
    registers.progressed(engine.bytesDone());
    if (f == null) {
      return;
    }
    registers.finished(f.ok(), f.bytes(), GpuRegisters.Error.COMPLETION_ERROR);
    if (!f.ok()) {
      getContext().getLog().info("GPU [{}] copy {} failed at {} ns after {} bytes: an error completion", id,
          f.copy(), f.at(), f.bytes());
    }
    if (registers.msiAddress() != 0) {
      endpoint.tell(new MemoryEndpoint.Write(registers.msiAddress(), GpuRegisters.dword(registers.msiData()), f.at()));
    }
  }

  /** STATUS and the counters into BAR0 (a driver's read sees them), then the call's answer. */
  private void publishAndAnswer(GuestCall call) {
    endpoint.tell(new MemoryEndpoint.Store(registers.readOnlyAddress(), registers.readOnlyImage()));
    call.answer(endpoint);
  }

  private Behavior<Command> onGetStats(GetStats msg) {
    msg.replyTo().tell(new GpuStats(id, engine.completedCopies(), engine.failedCopies(), registers.refused(),
        engine.tlps(), registers.status(), registers.bytesDone()));
    return this;
  }

  /** The engine's TLPs as the endpoint's commands. */
  private final class EndpointBus implements DmaCopyEngine.Bus {
    @Override
    public void write(long address, byte[] data, long at) {
      endpoint.tell(new MemoryEndpoint.Write(address, data, at));
    }

    @Override
    public void read(long address, int length, long at) {
      endpoint.tell(new MemoryEndpoint.Read(address, length, at, readReplies));
    }

    @Override
    public void store(long deviceAddress, byte[] data) {
      endpoint.tell(new MemoryEndpoint.Store(deviceAddress, data));
    }

    @Override
    public void load(long deviceAddress, int length) {
      loading = true;
      endpoint.tell(new MemoryEndpoint.Peek(deviceAddress, length, loads));
    }
  }
}

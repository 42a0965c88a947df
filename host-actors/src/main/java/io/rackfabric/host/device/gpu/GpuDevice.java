package io.rackfabric.host.device.gpu;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.wire.WireMessage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A GPU-like device behind its PCIe endpoint: registers in BAR0 ({@link GpuRegisters}), device
 * memory in BAR1 (the endpoint's own), a DMA copy engine ({@link DmaCopyEngine}) and a ping-pong
 * kernel that writes and waits for a counter on its own ({@link PingPongKernel}). A guest of
 * its endpoint: every register write, read completion and setup wake is a call, and the device
 * answers it only once it has sent what the call caused (writes, reads, its MSI, the status it
 * keeps in BAR0), so a copy's TLPs enter the model at the times the engine stamps. Free-running
 * it works the same, its wakes due at once. Must run next to its endpoint.
 */
public final class GpuDevice extends AbstractBehavior<GpuDevice.Command> {

  public sealed interface Command permits GetStats, Program, Called, SourceLoaded, ReadReturned {}

  public record GetStats(ActorRef<GpuStats> replyTo) implements Command, WireMessage {}

  /** The device's counters and STATUS register ({@link GpuRegisters}), for runs and tests. */
  public record GpuStats(String id, long copiesDone, long copiesFailed, long refused, long tlps, int status,
      long bytesDone) implements WireMessage {}

  /** One register write of {@link Program}: {@code data} at {@code offset} into BAR0. */
  public record RegisterWrite(int offset, byte[] data) {}

  /**
   * Applies {@code writes} to the registers in order as if they arrived from the fabric at model
   * time {@code at} (a wake of the endpoint, so inside one of its calls), without a driver: what a
   * run does to start device-initiated work such as the ping-pong, which needs none. The wake is
   * asked for before any later message to the device is handled (a run holding the rack asks
   * {@link GetStats} and then confirms the endpoint). {@code done} gets the report of the ping-pong
   * a PP_DOORBELL among the writes starts once it ends, or at once if it was refused or none rang.
   */
  public record Program(long at, List<RegisterWrite> writes, ActorRef<PingPongReport> done)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * What a ping-pong run came to ({@link PingPongKernel}): its state ({@code DONE}, or {@code
   * ERROR} with {@code error} saying why), rounds done, ping's round-trip model times in ns (empty
   * for pong), the poll reads and counter writes it issued, and the model time it ended.
   */
  public record PingPongReport(String id, PingPongKernel.State state, String error, long rounds, List<Long> roundNs,
      long reads, long writes, long endedAt) implements NoSerializationVerificationNeeded {}

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
  private final PingPongKernel kernel;
  private final GpuBars bars;
  /** Programs waiting for their wake, by (negative) token; the copy engine's wakes are positive. */
  private final Map<Long, Program> programs = new HashMap<>();
  private long programTokens;
  /** Told when the running ping-pong ends. */
  private ActorRef<PingPongReport> pingPongDone;
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
    this.bars = bars;
    this.calls = context.messageAdapter(GuestCall.class, Called::new);
    this.readReplies = context.messageAdapter(MemoryEndpoint.ReadResult.class, ReadReturned::new);
    this.loads = context.messageAdapter(byte[].class, SourceLoaded::new);
    ActorRef<EndpointEvent> writes = context.messageAdapter(EndpointEvent.class, e -> new Called(
        new GuestCall.Event(0, e))); // never told directly: the endpoint calls its guest instead
    EndpointBus bus = new EndpointBus(writes);
    this.engine = new DmaCopyEngine(bars.memory(), maxPayload, settings, bus);
    this.kernel = new PingPongKernel(bars.memory(), bus);
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
        .onMessage(Program.class, this::onProgram)
        .build();
  }

  private Behavior<Command> onCalled(Called msg) {
    GuestCall call = msg.call();
    if (call instanceof GuestCall.Event e && e.event() instanceof EndpointEvent.MemoryWritten w) {
      if (bars.registers().contains(w.address())) {
        registerWritten(w.address(), w.data(), w.arrivedAt());
      } else {
        kernel.written(w.address(), w.data(), w.arrivedAt());
      }
    } else if (call instanceof GuestCall.ReadDone r) {
      readCompleted(r.result());
    } else if (call instanceof GuestCall.Wake w && w.token() < 0) {
      programmed(programs.remove(w.token()), w.at());
    } else if (call instanceof GuestCall.Wake w) {
      engine.setupDone(w.token(), w.at());
    }
    pingPongEnded();
    if (loading && heldCall == null) {
      heldCall = call; // an out copy's source is on its way: its writes go out inside this call
      return this;
    }
    publishAndAnswer(call);
    return this;
  }

  /** A write into BAR0; whether it rang the ping-pong's doorbell and started it (null: not rung). */
  private Boolean registerWritten(long address, byte[] data, long arrivedAt) {
    GpuRegisters.Written written = registers.written(address, data);
    if (written.refused()) {
      getContext().getLog().info("GPU [{}] refused a register write of {} bytes at 0x{}: {}", id,
          data == null ? 0 : data.length, Long.toHexString(address), registers.error());
    }
    Boolean pingPong = written.pingPong() == null ? null : pingPongRung(written.pingPong(), arrivedAt);
    if (written.doorbell() != null) {
      copyRung(written, arrivedAt);
    }
    return pingPong;
  }

  private void copyRung(GpuRegisters.Written written, long arrivedAt) {
    DmaCopyEngine.Start start = engine.start(written.doorbell(), arrivedAt);
    if (start instanceof DmaCopyEngine.Started s) {
      registers.started();
      endpoint.tell(new MemoryEndpoint.WakeGuest(calls, s.firstTlpAt(), s.copy()));
    } else if (start instanceof DmaCopyEngine.Refused r) {
      registers.refuse(r.why());
      getContext().getLog().info("GPU [{}] refused a doorbell at {} ns ({}): {}", id, arrivedAt,
          written.doorbell(), r.why());
    }
  }

  private boolean pingPongRung(GpuRegisters.PingPongDoorbell d, long at) {
    PingPongKernel.Setup setup = d.setup();
    GpuRegisters.Error why = setup == null ? GpuRegisters.Error.BAD_PING_PONG : kernel.start(setup, at);
    if (why != GpuRegisters.Error.NONE) {
      registers.refuse(why);
      getContext().getLog().info("GPU [{}] refused a ping-pong doorbell at {} ns ({}): {}", id, at, d, why);
    }
    return why == GpuRegisters.Error.NONE;
  }

  private Behavior<Command> onProgram(Program msg) {
    long token = -(++programTokens);
    programs.put(token, msg);
    endpoint.tell(new MemoryEndpoint.WakeGuest(calls, msg.at(), token));
    return this;
  }

  /** A program's wake at {@code at}: its writes as the registers would take them from the fabric. */
  private void programmed(Program p, long at) {
    if (p == null) {
      return;
    }
    Boolean started = null;
    for (RegisterWrite w : p.writes()) {
      Boolean rung = registerWritten(bars.registers().base() + w.offset(), w.data(), at);
      started = rung == null ? started : rung;
    }
    if (Boolean.TRUE.equals(started) && kernel.state() == PingPongKernel.State.RUNNING) {
      pingPongDone = p.done(); // told when it ends
    } else {
      p.done().tell(report(started == null ? "no PP_DOORBELL among the writes"
          : started ? "" : "the ping-pong doorbell was refused: " + registers.error(), at));
    }
  }

  /** Tells whoever waits for the running ping-pong once it ended (in this call). */
  private void pingPongEnded() {
    if (pingPongDone == null || kernel.state() == PingPongKernel.State.RUNNING) {
      return;
    }
    pingPongDone.tell(report(kernel.state() == PingPongKernel.State.ERROR ? "a poll read completed with an error" : "",
        kernel.endedAt()));
    pingPongDone = null;
  }

  private PingPongReport report(String error, long at) {
    return new PingPongReport(id, error.isEmpty() ? kernel.state() : PingPongKernel.State.ERROR, error,
        kernel.roundsDone(), kernel.roundTimes(), kernel.reads(), kernel.writes(), at);
  }

  private void readCompleted(MemoryEndpoint.ReadResult r) {
    if (kernel.readDone(r.address(), r.status() == CompletionStatus.SUCCESSFUL, r.data(), r.latencyNs())) {
      return;
    }
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
    publish();
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
    publish();
    call.answer(endpoint);
  }

  private void publish() {
    endpoint.tell(new MemoryEndpoint.Store(registers.readOnlyAddress(), registers.readOnlyImage()));
    endpoint.tell(new MemoryEndpoint.Store(registers.pingPongAddress(), GpuRegisters.pingPongImage(kernel)));
  }

  private Behavior<Command> onGetStats(GetStats msg) {
    msg.replyTo().tell(new GpuStats(id, engine.completedCopies(), engine.failedCopies(), registers.refused(),
        engine.tlps(), registers.status(), registers.bytesDone()));
    return this;
  }

  /** The copy engine's and the ping-pong kernel's TLPs (and the kernel's watch) as the endpoint's commands. */
  private final class EndpointBus implements DmaCopyEngine.Bus, PingPongKernel.Bus {
    private final ActorRef<EndpointEvent> writes;

    EndpointBus(ActorRef<EndpointEvent> writes) {
      this.writes = writes;
    }

    @Override
    public void watch(long address) {
      endpoint.tell(new MemoryEndpoint.Watch(new AddressRange(address, address + 3), writes));
    }
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

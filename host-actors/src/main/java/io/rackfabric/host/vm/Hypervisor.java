package io.rackfabric.host.vm;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.host.controlplane.ControlPlaneClient;
import io.rackfabric.host.device.WatchingGuest;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A VM's hypervisor on its host (Device Lending, section 5), as a guest of the host's root
 * endpoint: it traps the guest's actions on its passed-through devices, each at its model time (a
 * wake), and drives each device's {@link PassThroughDevice} life through the host's control-plane
 * driver. The first command write with Bus Master Enable set, of a device on another host, asks
 * the controller to borrow it and then, as a request that names the borrow as the one it depends
 * on ({@link ControlPlaneClient.Issue#after}), to map the guest's whole memory (pinned) into the
 * loan: a refused borrow maps nothing, the device stays attached and not enabled (the guest reads
 * Bus Master Enable back as 0), and a later enable asks again. A hot-remove or the shut-down of a
 * borrowed device returns it (after its borrow, when that is still unanswered). The requests enter the model at the action's time: the hypervisor
 * holds the endpoint's call until the driver has queued them. The answers come outside a call;
 * the next action's wake comes after them (the driver tells the answer before it lets the
 * endpoint go on; local only, as every guest).
 */
public final class Hypervisor extends AbstractBehavior<Hypervisor.Command> {

  public sealed interface Command permits Start, GetRecord, Called, Queued, Answered {}

  public enum Action { COMMAND, HOT_REMOVE, SHUTDOWN }

  /**
   * A device passed through to the VM; a remote one (of another host) is borrowed with this DMA
   * window ({@code rack lend}'s for the pair), else all 0.
   */
  public record Device(String id, boolean remote, long windowBase, long windowSize, long windowTarget) {}

  /** What the guest does at model time {@code at}: a command write of {@code value}, a hot-remove, the shut-down. */
  public record GuestAction(long at, Action action, String device, int value) {}

  /** The VM and its guest's actions, in the order of their times; its memory is at {@code base} in the host's RAM. */
  public record Plan(String vm, String host, long base, long memory, List<Device> devices, List<GuestAction> actions) {

    public Plan {
      devices = List.copyOf(devices);
      actions = List.copyOf(actions);
    }
  }

  /** Attaches and sets a wake per action; {@code replyTo} hears once the wakes are asked for. */
  public record Start(ActorRef<Started> replyTo) implements Command, NoSerializationVerificationNeeded {}

  public record Started(String vm) implements NoSerializationVerificationNeeded {}

  /**
   * A request the hypervisor handed to its host's driver for guest action {@code action} (its
   * index in the plan), and the answer (null until it came; REJECTED with {@link
   * ControlPlaneClient#NOT_SENT} when it depended on a refused one).
   */
  public record Asked(int action, Controller.Operation operation, String cause, OperationResult result) {}

  /** What the guest read back of command write {@code action} (-1 while its borrow is unanswered). */
  public record Seen(int action, long at, int written, int readBack) {}

  /** What the hypervisor did: {@code trapped} of the plan's actions so far, the requests and what the guest saw. */
  public record Record(String vm, int trapped, List<Asked> asked, List<Seen> seen)
      implements NoSerializationVerificationNeeded {

    public Record {
      asked = List.copyOf(asked);
      seen = List.copyOf(seen);
    }

    /** Whether every request handed over has its answer. */
    public boolean answered() {
      return asked.stream().allMatch(a -> a.result() != null);
    }
  }

  /** Answered once every action was trapped and every request it caused has its answer. */
  public record GetRecord(ActorRef<Record> replyTo) implements Command, NoSerializationVerificationNeeded {}

  private record Called(GuestCall call) implements Command, NoSerializationVerificationNeeded {}

  private record Queued(ControlPlaneClient.PagesDone records) implements Command, NoSerializationVerificationNeeded {}

  private record Answered(OperationResult result) implements Command, NoSerializationVerificationNeeded {}

  private final Plan plan;
  private final ActorRef<ControlPlaneClient.Command> client;
  private final WatchingGuest guest;
  private final ActorRef<ControlPlaneClient.PagesDone> queued;
  /**
   * Where every answer comes (one adapter per message class: Akka keeps the last). The driver
   * answers a requester's requests in the order they were handed over (see {@code RequestChain}),
   * so the next answer is the oldest request's.
   */
  private final ActorRef<OperationResult> answers;
  private int nextAnswer;
  private final Map<String, PassThroughDevice> devices = new LinkedHashMap<>();
  private final Map<String, Device> specs = new LinkedHashMap<>();
  private final List<Asked> asked = new ArrayList<>();
  private final List<Seen> seen = new ArrayList<>();
  /** The label of each device's last borrow, for the requests that depend on it. */
  private final Map<String, String> borrowLabels = new LinkedHashMap<>();
  /** The borrow each device's enabling write waits for: the index in {@link #seen}. */
  private final Map<Integer, Integer> enablingSeen = new LinkedHashMap<>();
  private final List<ActorRef<Record>> waiting = new ArrayList<>();
  private GuestCall held;
  private int trapped;

  public static Behavior<Command> create(Plan plan, ActorRef<MemoryEndpoint.Command> endpoint,
      ActorRef<ControlPlaneClient.Command> client) {
    return Behaviors.setup(ctx -> new Hypervisor(ctx, plan, endpoint, client));
  }

  private Hypervisor(ActorContext<Command> context, Plan plan, ActorRef<MemoryEndpoint.Command> endpoint,
      ActorRef<ControlPlaneClient.Command> client) {
    super(context);
    this.plan = plan;
    this.client = client;
    this.guest = new WatchingGuest(context, endpoint, Called::new);
    this.queued = context.messageAdapter(ControlPlaneClient.PagesDone.class, Queued::new);
    this.answers = context.messageAdapter(OperationResult.class, Answered::new);
    for (Device d : plan.devices()) {
      devices.put(d.id(), new PassThroughDevice(d.id(), plan.vm()));
      specs.put(d.id(), d);
    }
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Start.class, this::onStart)
        .onMessage(GetRecord.class, this::onGetRecord)
        .onMessage(Called.class, this::onCalled)
        .onMessage(Queued.class, this::onQueued)
        .onMessage(Answered.class, this::onAnswered)
        .build();
  }

  private Behavior<Command> onStart(Start msg) {
    guest.attach(List.of(), List.of());
    for (int i = 0; i < plan.actions().size(); i++) {
      guest.wake(plan.actions().get(i).at(), i + 1);
    }
    msg.replyTo().tell(new Started(plan.vm()));
    return this;
  }

  private Behavior<Command> onGetRecord(GetRecord msg) {
    waiting.add(msg.replyTo());
    tellWaiting();
    return this;
  }

  private void tellWaiting() {
    Record r = new Record(plan.vm(), trapped, asked, seen);
    if (trapped == plan.actions().size() && r.answered()) {
      waiting.forEach(w -> w.tell(r));
      waiting.clear();
    }
  }

  private Behavior<Command> onCalled(Called msg) {
    GuestCall call = msg.call();
    int index = call instanceof GuestCall.Wake w ? (int) w.token() - 1 : -1;
    if (index < 0 || index >= plan.actions().size()) {
      guest.answer(call);
      return this;
    }
    GuestCall.Wake wake = (GuestCall.Wake) call;
    int before = asked.size();
    trap(index, plan.actions().get(index), wake.at());
    trapped++;
    if (asked.size() == before) {
      guest.answer(call);
      tellWaiting();
      return this;
    }
    held = call; // answered once the driver has queued the requests: they enter the model now
    client.tell(new ControlPlaneClient.GetRequests(queued));
    return this;
  }

  /** The guest's action {@code index}, trapped at model time {@code at}. */
  private void trap(int index, GuestAction a, long at) {
    String vmName = "vm " + plan.vm();
    switch (a.action()) {
      case COMMAND -> {
        PassThroughDevice d = devices.get(a.device());
        if (d.state() == PassThroughDevice.State.RETURNED) {
          getContext().getLog().warn("vm [{}]: device [{}] was removed; its command write at {} ns is ignored",
              plan.vm(), a.device(), at);
          return;
        }
        Device spec = specs.get(a.device());
        if (!d.commandWritten(a.value())) {
          seen.add(new Seen(index, at, a.value(), d.readBack(a.value())));
          return;
        }
        if (!spec.remote()) { // VFIO: the host's own device, no loan
          d.borrowAnswered(true);
          seen.add(new Seen(index, at, a.value(), d.readBack(a.value())));
          return;
        }
        String cause = vmName + ": command=0x" + Integer.toHexString(a.value()) + " sets Bus Master Enable";
        enablingSeen.put(asked.size(), seen.size());
        seen.add(new Seen(index, at, a.value(), -1));
        String borrow = "borrow " + a.device() + " (action " + index + ")";
        borrowLabels.put(a.device(), borrow);
        issue(index, new Controller.BorrowDevice(a.device(), plan.host(), plan.vm(), spec.windowBase(),
            spec.windowSize(), spec.windowTarget(), at, answers), cause, borrow, null);
        issue(index, new Controller.MapDmaBuffer(a.device(), plan.host(), plan.base(), plan.memory(), at, answers),
            cause + ": its memory pinned", null, borrow);
      }
      case HOT_REMOVE -> released(index, a.device(), at, vmName + ": hot-remove");
      case SHUTDOWN -> devices.keySet().forEach(id -> released(index, id, at, vmName + ": shut down"));
      default -> throw new IllegalStateException("action " + a.action());
    }
  }

  /** The device leaves the VM: a return when it was borrowed (or its borrow still unanswered: then after it). */
  private void released(int index, String id, long at, String cause) {
    PassThroughDevice d = devices.get(id);
    boolean pending = d.state() == PassThroughDevice.State.ENABLING;
    if (d.state() != PassThroughDevice.State.RETURNED && d.released() && specs.get(id).remote()) {
      issue(index, new Controller.ReturnDevice(id, plan.host(), at, answers), cause, null,
          pending ? borrowLabels.get(id) : null);
    }
  }

  /** Hands {@code op} to the driver, labelled {@code label}, after the request labelled {@code after} (each may be null). */
  private void issue(int index, Controller.Operation op, String cause, String label, String after) {
    asked.add(new Asked(index, op, cause, null));
    client.tell(new ControlPlaneClient.Issue(op, label, after));
  }

  private Behavior<Command> onQueued(Queued msg) {
    if (held != null) {
      guest.answer(held);
      held = null;
    }
    return this;
  }

  private Behavior<Command> onAnswered(Answered msg) {
    if (nextAnswer >= asked.size()) {
      getContext().getLog().warn("vm [{}]: an answer to no request: {}", plan.vm(), msg.result());
      return this;
    }
    int index = nextAnswer++;
    Asked a = asked.get(index);
    asked.set(index, new Asked(a.action(), a.operation(), a.cause(), msg.result()));
    Integer s = enablingSeen.remove(index);
    if (s != null && a.operation() instanceof Controller.BorrowDevice b) {
      PassThroughDevice d = devices.get(b.device());
      d.borrowAnswered(msg.result().accepted());
      Seen was = seen.get(s);
      seen.set(s, new Seen(was.action(), was.at(), was.written(), d.readBack(was.written())));
      getContext().getLog().info("vm [{}]: the borrow of [{}] was {} at {} ns: Bus Master Enable reads back {}",
          plan.vm(), b.device(), msg.result().status(), msg.result().at(), msg.result().accepted() ? 1 : 0);
    }
    tellWaiting();
    return this;
  }
}

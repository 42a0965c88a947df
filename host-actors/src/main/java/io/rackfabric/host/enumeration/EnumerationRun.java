package io.rackfabric.host.enumeration;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Runs {@link Enumerator}s over one root endpoint: each configuration request the enumerator
 * asks for goes out as the root's {@link MemoryEndpoint.ConfigRequest}, one at a time, and its
 * {@link MemoryEndpoint.ConfigResult} goes back in. A request with no completion is answered so by
 * the root endpoint at its completion timeout (a model-time event under the kernel), which a root
 * complex treats as an absent function; {@code requestTimeout} (wall time) only keeps a run from
 * hanging on a root that does not answer at all, and counts the same. Requests to enumerate are served in order of arrival; each is answered with an {@link
 * EnumerationResult}, whose problems say what went wrong (bad input included).
 *
 * <p>A root sees only its own domain: a switch drops configuration requests that come up through a
 * downstream port (Multi-peer), and an NTB port answers for its own side only, so a compute host
 * enumerating finds its root ports and the NTBs' virtual sides, and the management host finds the
 * NTB ports as endpoints.
 */
public final class EnumerationRun extends AbstractBehavior<EnumerationRun.Command> {

  public sealed interface Command permits Enumerate, RescanSlot, ConfigAnswered {}

  /** Enumerates the root's whole domain under {@code policy}. */
  public record Enumerate(AllocationPolicy policy, ActorRef<EnumerationResult> replyTo)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * Re-enumerates slot {@code slot} after a host was plugged into it or pulled out, leaving every
   * other function as {@code previous} has it; the reply is {@code previous} with the slot's
   * functions replaced.
   */
  public record RescanSlot(EnumerationResult previous, AllocationPolicy policy, int slot,
      ActorRef<EnumerationResult> replyTo) implements Command, NoSerializationVerificationNeeded {}

  /** The root's answer to the current request, or none when it timed out. */
  private record ConfigAnswered(long run, ConfigAnswer answer) implements Command, NoSerializationVerificationNeeded {}

  private final String rootId;
  private final ActorRef<MemoryEndpoint.Command> root;
  private final Duration requestTimeout;
  private final Deque<Command> waiting = new ArrayDeque<>();
  private Enumerator current;
  private ActorRef<EnumerationResult> currentReplyTo;
  private long run;

  /**
   * @param rootId the root endpoint's id, named in results
   * @param requestTimeout how long (wall time) to wait for one request's completion
   */
  public static Behavior<Command> create(String rootId, ActorRef<MemoryEndpoint.Command> root, Duration requestTimeout) {
    if (requestTimeout.isNegative() || requestTimeout.isZero()) {
      throw new IllegalArgumentException("request-timeout=" + requestTimeout + " must be positive");
    }
    return Behaviors.setup(ctx -> new EnumerationRun(ctx, rootId, root, requestTimeout));
  }

  private EnumerationRun(ActorContext<Command> context, String rootId, ActorRef<MemoryEndpoint.Command> root,
      Duration requestTimeout) {
    super(context);
    this.rootId = rootId;
    this.root = root;
    this.requestTimeout = requestTimeout;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Enumerate.class, this::onEnumerate)
        .onMessage(RescanSlot.class, this::onRescanSlot)
        .onMessage(ConfigAnswered.class, this::onConfigAnswered)
        .build();
  }

  private Behavior<Command> onEnumerate(Enumerate msg) {
    if (current != null) {
      waiting.addLast(msg);
      return this;
    }
    start(Enumerator.enumerate(rootId, msg.policy()), msg.replyTo());
    return this;
  }

  private Behavior<Command> onRescanSlot(RescanSlot msg) {
    if (current != null) {
      waiting.addLast(msg);
      return this;
    }
    Enumerator e;
    try {
      e = Enumerator.rescanSlot(msg.previous(), msg.policy(), msg.slot());
    } catch (IllegalArgumentException ex) {
      msg.replyTo().tell(EnumerationResult.failed(rootId, msg.policy().mode(), ex.getMessage()));
      return startWaiting();
    }
    start(e, msg.replyTo());
    return this;
  }

  private void start(Enumerator enumerator, ActorRef<EnumerationResult> replyTo) {
    current = enumerator;
    currentReplyTo = replyTo;
    run++;
    getContext().getLog().debug("Enumeration [{}] run {} started", rootId, run);
    step();
  }

  /** Issues the enumerator's next request, or replies when it has none. */
  private void step() {
    ConfigOp op = current.next();
    if (op == null) {
      EnumerationResult result = current.result();
      getContext().getLog().info("Enumeration [{}] found {} functions with {} requests, {} problems", rootId,
          result.all().size(), result.configRequests(), result.problems().size());
      currentReplyTo.tell(result);
      current = null;
      currentReplyTo = null;
      startWaiting();
      return;
    }
    long thisRun = run;
    getContext().ask(MemoryEndpoint.ConfigResult.class, root, requestTimeout, op::toRequest,
        (result, failure) -> new ConfigAnswered(thisRun,
            result == null ? ConfigAnswer.noCompletion() : ConfigAnswer.of(result)));
  }

  private Behavior<Command> onConfigAnswered(ConfigAnswered msg) {
    if (current == null || msg.run() != run) {
      return this; // a late answer to a run that is over
    }
    current.accept(msg.answer());
    step();
    return this;
  }

  private Behavior<Command> startWaiting() {
    Command next = waiting.pollFirst();
    if (next instanceof Enumerate e) {
      return onEnumerate(e);
    }
    if (next instanceof RescanSlot r) {
      return onRescanSlot(r);
    }
    return this;
  }
}

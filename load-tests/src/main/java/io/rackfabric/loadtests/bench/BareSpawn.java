package io.rackfabric.loadtests.bench;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import com.typesafe.config.ConfigFactory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The bare-runtime baseline of a rack's start-up: an actor system on the rack's dispatcher settings
 * spawns {@code count} actors that do nothing but answer once, and the wall time from creating the
 * system to the last answer is taken. A rack's start-up divided by this, for as many actors as it
 * has components, is what the emulation adds (configuration, link training, registration).
 */
public final class BareSpawn extends AbstractBehavior<BareSpawn.Command> {

  public sealed interface Command {}

  /** Spawn {@code count} children, each answering {@code done} once it runs. */
  private record SpawnAll(int count, CountDownLatch done) implements Command,
      akka.actor.NoSerializationVerificationNeeded {}

  private record Answered() implements Command, akka.actor.NoSerializationVerificationNeeded {}

  static Behavior<Command> create() {
    return Behaviors.setup(BareSpawn::new);
  }

  private CountDownLatch done;

  private BareSpawn(ActorContext<Command> context) {
    super(context);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(SpawnAll.class, this::onSpawnAll)
        .onMessage(Answered.class, this::onAnswered)
        .build();
  }

  private Behavior<Command> onSpawnAll(SpawnAll msg) {
    done = msg.done();
    ActorRef<Command> self = getContext().getSelf();
    for (int i = 0; i < msg.count(); i++) {
      getContext().spawnAnonymous(Behaviors.<Void>setup(ctx -> {
        self.tell(new Answered());
        return Behaviors.empty();
      }));
    }
    return this;
  }

  private Behavior<Command> onAnswered(Answered msg) {
    done.countDown();
    return this;
  }

  /** Wall nanoseconds from creating the system to the last of {@code count} actors answering. */
  public static long run(int count) throws Exception {
    long t0 = System.nanoTime();
    ActorSystem<Command> system = ActorSystem.create(create(), "bare-spawn",
        ConfigFactory.parseString("akka.actor.provider = local").withFallback(ConfigFactory.load()));
    try {
      CountDownLatch done = new CountDownLatch(count);
      system.tell(new SpawnAll(count, done));
      if (!done.await(5, TimeUnit.MINUTES)) {
        throw new IllegalStateException("bare spawn: " + done.getCount() + " of " + count + " actors never ran");
      }
      return System.nanoTime() - t0;
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(1, TimeUnit.MINUTES);
    }
  }
}

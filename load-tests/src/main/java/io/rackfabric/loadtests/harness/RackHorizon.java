package io.rackfabric.loadtests.harness;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import io.rackfabric.fabric.link.FaultHorizon;
import io.rackfabric.fabric.port.LinkPort;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Holds a free-running rack at the model time of its next fault: every link end keeps TLPs stamped
 * at or after it (see {@link io.rackfabric.fabric.link.LinkEnd#holdFrom}), and an endpoint passes
 * the hold on to the host software that is its guest, whose wall-clock timers then run none due
 * there ({@link io.rackfabric.fabric.endpoint.GuestCall.Hold}). Returns once every link end, and
 * every guest behind it, has it in effect.
 */
public final class RackHorizon {

  private RackHorizon() {}

  /**
   * Holds {@code linkEnds} (endpoints and switch ports, see {@link LinkPort#of}) from {@code
   * modelAt}; {@code Long.MAX_VALUE} lifts the hold.
   */
  public static void holdFrom(ActorSystem<?> system, List<ActorRef<LinkPort.Command>> linkEnds, long modelAt,
      Duration timeout) throws Exception {
    List<CompletableFuture<FaultHorizon>> acks = new ArrayList<>();
    for (ActorRef<LinkPort.Command> end : linkEnds) {
      acks.add(Asks.askAsync(system, end, r -> new LinkPort.HoldFrom(modelAt, r), timeout));
    }
    CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new))
        .get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
  }
}

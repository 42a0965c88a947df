package io.rackfabric.fabric.kryo;

import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.wire.WireMessage;
import java.util.concurrent.atomic.AtomicInteger;

/** Test-only wire messages; registered (except {@link Unregistered}) by WireTestRegistrations. */
final class WireTestMessages {

  private WireTestMessages() {}

  /** Carries a typed ref across the wire. */
  record WithRef(String text, ActorRef<String> replyTo) implements WireMessage {}

  /** Carries any wire message; lets a test hide an unregistered class one level down. */
  record Envelope(WireMessage inner) implements WireMessage {}

  /**
   * Counts its constructions and validates against a limit the test can lower, to show that
   * reading goes through the canonical constructor.
   */
  record Checked(int value) implements WireMessage {
    static final AtomicInteger CONSTRUCTIONS = new AtomicInteger();
    static final AtomicInteger LIMIT = new AtomicInteger(Integer.MAX_VALUE);

    Checked {
      CONSTRUCTIONS.incrementAndGet();
      if (value > LIMIT.get()) {
        throw new IllegalArgumentException("value=" + value + " above limit=" + LIMIT.get());
      }
    }
  }

  /** Implements WireMessage but has no id: must fail loudly. */
  record Unregistered(int value) implements WireMessage {}
}

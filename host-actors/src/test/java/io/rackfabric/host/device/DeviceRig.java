package io.rackfabric.host.device;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.time.TimeKeeper;
import java.time.Duration;
import java.util.function.LongConsumer;

/**
 * What the device tests share: a test kit that serializes every message, links that come up
 * quickly, and a driver on the root that acts at chosen model times under the kernel.
 */
public final class DeviceRig {

  public static final Duration WAIT = Duration.ofSeconds(30);
  static final String CONFIG = "akka.actor.serialize-messages = on\n"
      + "rackfabric.fabric.link-timers { keepalive = 50ms, dllp-timeout = 400ms, retry-interval = 100ms }";

  private DeviceRig() {}

  public static ActorTestKit kit() {
    return ActorTestKit.create(ConfigFactory.parseString(CONFIG).withFallback(ConfigFactory.load()));
  }

  public static void awaitActive(ActorTestKit kit, ActorRef<MemoryEndpoint.Command> ep) {
    TestProbe<EndpointStats> probe = kit.createTestProbe();
    probe.awaitAssert(WAIT, () -> {
      ep.tell(new MemoryEndpoint.GetStats(probe.ref()));
      assertEquals(DataLinkState.DL_ACTIVE, probe.receiveMessage().link().state());
      return null;
    });
  }

  /**
   * The driver on {@code root} sends what {@code send} sends, stamped at model time {@code at}:
   * the rack is held before {@code at} until the root has them (under the kernel; {@code keeper}
   * null: running free, {@code send} gets -1, now).
   */
  public static void at(ActorTestKit kit, ActorRef<TimeKeeper.Command> keeper, ActorRef<MemoryEndpoint.Command> root,
      long at, LongConsumer send) {
    if (keeper == null) {
      send.accept(-1);
      return;
    }
    TestProbe<TimeKeeper.Status> held = kit.createTestProbe();
    keeper.tell(new TimeKeeper.HoldBefore(at, held.ref()));
    held.receiveMessage(WAIT);
    send.accept(at);
    TestProbe<TimeKeeper.Confirmed> confirmed = kit.createTestProbe();
    root.<PortMessage>unsafeUpcast().tell(new TimeKeeper.Confirm(confirmed.ref()));
    confirmed.receiveMessage(WAIT);
    keeper.tell(new TimeKeeper.Release());
  }

  /** Waits until the rack has nothing left to do; every event came in model-time order. */
  public static TimeKeeper.Status awaitIdle(ActorTestKit kit, ActorRef<TimeKeeper.Command> keeper) {
    TestProbe<TimeKeeper.Status> idle = kit.createTestProbe();
    keeper.tell(new TimeKeeper.AwaitIdle(idle.ref()));
    TimeKeeper.Status s = idle.receiveMessage(WAIT);
    assertEquals(0, s.stragglers(), "every event in model-time order");
    return s;
  }
}

package io.rackfabric.fabric.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.switchchip.SwitchPort;
import java.time.Duration;

/** The questions actor tests ask the fabric, answered through probes (never by sleeping). */
public final class FabricProbes {

  private FabricProbes() {}

  /**
   * A test kit for data-plane actor tests: every message serialized through the wire as it would
   * cross a JVM, and link timers short enough that retraining happens within a test.
   */
  public static ActorTestKit dataPlaneTestKit() {
    return ActorTestKit.create(ConfigFactory.parseString(
        "akka.actor.serialize-messages = on\n"
            + "rackfabric.fabric.link-timers { keepalive = 50ms, dllp-timeout = 400ms, retry-interval = 100ms }")
        .withFallback(ConfigFactory.load()));
  }

  /** Waits until the endpoint's link is DL_ACTIVE. */
  public static void awaitActive(ActorTestKit kit, ActorRef<MemoryEndpoint.Command> ep) {
    TestProbe<EndpointStats> probe = kit.createTestProbe();
    probe.awaitAssert(Duration.ofSeconds(10), () -> {
      ep.tell(new MemoryEndpoint.GetStats(probe.ref()));
      assertEquals(DataLinkState.DL_ACTIVE, probe.receiveMessage().link().state());
      return null;
    });
  }

  public static EndpointStats stats(ActorTestKit kit, ActorRef<MemoryEndpoint.Command> ep) {
    TestProbe<EndpointStats> probe = kit.createTestProbe();
    ep.tell(new MemoryEndpoint.GetStats(probe.ref()));
    return probe.receiveMessage();
  }

  public static PortStats portStats(ActorTestKit kit, ActorRef<SwitchChip.Command> chip, int number) {
    TestProbe<SwitchChip.PortReply> refs = kit.createTestProbe();
    chip.tell(new SwitchChip.PortRef(number, refs.ref()));
    TestProbe<PortStats> stats = kit.createTestProbe();
    refs.receiveMessage().port().tell(new SwitchPort.GetStats(stats.ref()));
    return stats.receiveMessage();
  }

  /** Waits until the endpoint's memory holds {@code expected} at {@code address}. */
  public static void awaitData(ActorTestKit kit, ActorRef<MemoryEndpoint.Command> ep, long address, byte[] expected) {
    TestProbe<byte[]> probe = kit.createTestProbe();
    probe.awaitAssert(() -> {
      ep.tell(new MemoryEndpoint.Peek(address, expected.length, probe.ref()));
      assertArrayEquals(expected, probe.receiveMessage());
      return null;
    });
  }

  public static byte[] peek(ActorTestKit kit, ActorRef<MemoryEndpoint.Command> ep, long address, int length) {
    TestProbe<byte[]> probe = kit.createTestProbe();
    ep.tell(new MemoryEndpoint.Peek(address, length, probe.ref()));
    return probe.receiveMessage();
  }
}

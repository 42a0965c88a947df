package io.rackfabric.host.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import akka.serialization.Serializers;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.fabric.wire.WireRegistrations.Entry;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.messaging.DatagramService;
import io.rackfabric.host.messaging.DatagramStats;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Every messaging class host-actors registers goes through Akka's serialization and comes back equal. */
class MessagingWireTest {

  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final Serialization serialization =
      SerializationExtension.get(testKit.system().classicSystem());

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private static Map<Class<?>, Object> samples() {
    TestProbe<Object> probe = testKit.createTestProbe();
    DatagramStats.PeerStats peer = new DatagramStats.PeerStats(1, Plane.SECONDARY, 1, 400, 400, 5,
        1, 399, 1, 2, 3, 67, 1, 1, 3839, 12, 0, 13);
    Map<Class<?>, Object> m = new HashMap<>();
    m.put(DatagramService.Send.class,
        new DatagramService.Send(2, new byte[] {1, 2, 3}, 4_000, probe.ref().narrow()));
    m.put(DatagramService.Queued.class, new DatagramService.Queued(1, 2, 41, 5_000));
    m.put(DatagramService.SendRefused.class, new DatagramService.SendRefused(1, 1, "peer=1 is this host itself"));
    m.put(DatagramService.Subscribe.class, new DatagramService.Subscribe(probe.ref().narrow()));
    m.put(DatagramService.Unsubscribe.class, new DatagramService.Unsubscribe(probe.ref().narrow()));
    m.put(DatagramService.Delivered.class,
        new DatagramService.Delivered(2, 1, 7, new byte[] {9, 8}, 12_345));
    m.put(DatagramService.UsePlane.class,
        new DatagramService.UsePlane(2, Plane.SECONDARY, 90_000, probe.ref().narrow()));
    m.put(DatagramService.PlaneSwitched.class,
        new DatagramService.PlaneSwitched(1, 2, Plane.SECONDARY, true, 5, 90_000));
    m.put(DatagramService.PlaneRefused.class,
        new DatagramService.PlaneRefused(1, 0, Plane.SECONDARY, "peer=0 (the MH) is mapped in PMS1 only"));
    m.put(DatagramService.GetStats.class, new DatagramService.GetStats(probe.ref().narrow()));
    m.put(DatagramStats.class, new DatagramStats(1, 628_039, "DOORBELL", 3, 0, List.of(peer)));
    m.put(DatagramStats.PeerStats.class, peer);
    return m;
  }

  @Test
  void shouldRoundTripEveryRegisteredMessageWhenSerializedThroughAkka() {
    Map<Class<?>, Object> samples = samples();
    for (Entry e : new HostWireRegistrations().registrations()) {
      if (!WireMessage.class.isAssignableFrom(e.type())
          || !e.type().getName().startsWith("io.rackfabric.host.messaging.")) {
        continue; // enums travel inside messages, as Plane does in UsePlane
      }
      Object sample = samples.get(e.type());
      assertEquals(e.type(), sample == null ? null : sample.getClass(), "a sample for " + e.type());
      akka.serialization.Serializer chosen = serialization.findSerializerFor(sample);
      byte[] bytes = serialization.serialize(sample).get();
      Object copy = serialization.deserialize(bytes, chosen.identifier(),
          Serializers.manifestFor(chosen, sample)).get();
      assertEquals(sample.getClass(), copy.getClass());
      if (sample instanceof DatagramService.Send s) {
        DatagramService.Send c = (DatagramService.Send) copy;
        assertArrayEquals(s.payload(), c.payload());
        assertEquals(s.replyTo(), c.replyTo());
      } else if (sample instanceof DatagramService.Delivered d) {
        assertArrayEquals(d.payload(), ((DatagramService.Delivered) copy).payload());
        assertEquals(d.modelAt(), ((DatagramService.Delivered) copy).modelAt());
      } else {
        assertEquals(sample, copy, e.type().getName());
      }
    }
  }

  @Test
  void shouldKeepEveryIdInHostActorsRangeAndTheMessagingBlock() {
    for (Entry e : new HostWireRegistrations().registrations()) {
      assertTrue(e.id() >= 2000 && e.id() < 3000, e.id() + " " + e.type().getName());
    }
    Map<Class<?>, Integer> pinned = Map.of(
        DatagramService.Send.class, 2300,
        DatagramService.Delivered.class, 2305,
        DatagramService.UsePlane.class, 2306,
        DatagramStats.class, 2310,
        Plane.class, 2100);
    Map<Class<?>, Integer> ids = new HashMap<>();
    new HostWireRegistrations().registrations().forEach(e -> ids.put(e.type(), e.id()));
    pinned.forEach((type, id) -> assertEquals(id, ids.get(type), type.getName() + " keeps its id"));
  }
}

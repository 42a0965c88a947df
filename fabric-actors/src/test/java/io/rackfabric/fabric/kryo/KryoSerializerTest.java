package io.rackfabric.fabric.kryo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.Behaviors;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import akka.serialization.Serializers;
import io.rackfabric.fabric.link.PhysicalDown;
import io.rackfabric.fabric.link.TlpFrame;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.fabric.wire.WireRegistrations;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

class KryoSerializerTest {

  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final Serialization serialization =
      SerializationExtension.get(testKit.system().classicSystem());
  private static final KryoSerializer kryo =
      (KryoSerializer) serialization.serializerByIdentity().apply(KryoSerializer.IDENTIFIER);

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /**
   * Through the extension exactly as Akka does it for a WireMessage; other registered types
   * (lists, arrays, enums, refs) only ever travel inside one, so they go to the serializer directly
   * and come back through the extension by serializer id.
   */
  private static Object roundTrip(Object value) {
    byte[] bytes;
    String manifest;
    if (value instanceof WireMessage) {
      akka.serialization.Serializer chosen = serialization.findSerializerFor(value);
      assertEquals(KryoSerializer.IDENTIFIER, chosen.identifier(),
          value.getClass().getName() + " bound to " + chosen.getClass().getName());
      bytes = serialization.serialize(value).get();
      manifest = Serializers.manifestFor(chosen, value);
    } else {
      bytes = kryo.toBinary(value);
      manifest = "";
    }
    return serialization.deserialize(bytes, KryoSerializer.IDENTIFIER, manifest).get();
  }

  private static void assertRoundTrips(Object value) {
    Object copy = roundTrip(value);
    assertTrue(WireSamples.deepEquals(value, copy),
        value.getClass().getName() + ": sent " + value + ", received " + copy);
  }

  @TestFactory
  Stream<DynamicTest> shouldRoundTripEveryRegisteredClassWhenSerializedThroughAkka() {
    TestProbe<String> probe = testKit.createTestProbe(String.class);
    WireSamples samples = new WireSamples(kryo.registry(), probe.getRef());
    return kryo.registry().entries().stream().map(r -> {
      Class<?> type = r.entry().type();
      return DynamicTest.dynamicTest(r.entry().id() + " " + type.getName(), () -> {
        Object sample = samples.sampleOf(type);
        assertTrue(type.isInstance(sample), "sample for " + type.getName() + " is a "
            + sample.getClass().getName());
        if (!type.isInterface() && !java.lang.reflect.Modifier.isAbstract(type.getModifiers())) {
          assertEquals(type, sample.getClass(), "sample must be exactly the registered class");
        }
        assertRoundTrips(sample);
      });
    });
  }

  @Test
  void shouldRoundTripNullFieldsWhenTheDomainAllowsThem() {
    for (Object extra : WireSamples.extras()) {
      assertRoundTrips(extra);
    }
  }

  @Test
  void shouldDeliverThroughDeserializedRefWhenRefTravelledInsideMessage() {
    TestProbe<String> probe = testKit.createTestProbe(String.class);
    ActorRef<String> echo = testKit.spawn(Behaviors.receiveMessage(text -> {
      probe.getRef().tell("echo:" + text);
      return Behaviors.same();
    }));
    var sent = new WireTestMessages.WithRef("hello", echo);

    var received = (WireTestMessages.WithRef) roundTrip(sent);

    assertEquals(sent, received); // refs compare by path and uid
    received.replyTo().tell("ping");
    probe.expectMessage("echo:ping");
  }

  @Test
  void shouldCallCanonicalConstructorWhenReading() {
    var sent = new WireTestMessages.Checked(7);
    byte[] bytes = serialization.serialize(sent).get();
    int before = WireTestMessages.Checked.CONSTRUCTIONS.get();

    Object received = serialization.deserialize(bytes, KryoSerializer.IDENTIFIER, "").get();

    assertEquals(sent, received);
    assertEquals(before + 1, WireTestMessages.Checked.CONSTRUCTIONS.get());
  }

  @Test
  void shouldRejectBytesWhenCompactConstructorValidationFailsOnRead() {
    byte[] bytes = serialization.serialize(new WireTestMessages.Checked(7)).get();
    WireTestMessages.Checked.LIMIT.set(5);
    try {
      Throwable failure = assertThrows(Throwable.class,
          () -> serialization.deserialize(bytes, KryoSerializer.IDENTIFIER, "").get());
      assertTrue(messages(failure).contains("value=7 above limit=5"), messages(failure));
    } finally {
      WireTestMessages.Checked.LIMIT.set(Integer.MAX_VALUE);
    }
  }

  @Test
  void shouldFailNamingTheClassWhenMessageIsNotRegistered() {
    var message = new WireTestMessages.Unregistered(1);

    Throwable failure = assertThrows(Throwable.class, () -> serialization.serialize(message).get());

    assertInstanceOf(IllegalArgumentException.class, failure);
    assertEquals("class " + WireTestMessages.Unregistered.class.getName()
            + " is not registered in WireRegistry: give it a fixed id in a WireRegistrations"
            + " implementation listed in META-INF/services",
        failure.getMessage());
  }

  @Test
  void shouldFailNamingTheClassWhenUnregisteredClassIsNestedInARegisteredOne() {
    var message = new WireTestMessages.Envelope(new WireTestMessages.Unregistered(1));

    Throwable failure = assertThrows(Throwable.class, () -> serialization.serialize(message).get());

    assertTrue(messages(failure).contains(
        "class " + WireTestMessages.Unregistered.class.getName()
            + " is not registered in WireRegistry"), messages(failure));
  }

  @Test
  void shouldServeManyThreadsWhenCalledConcurrently() throws Exception {
    List<Object> values = WireSamples.extras();
    Thread[] threads = new Thread[8];
    Throwable[] failures = new Throwable[threads.length];
    for (int t = 0; t < threads.length; t++) {
      int index = t;
      threads[t] = new Thread(() -> {
        try {
          for (int i = 0; i < 2_000; i++) {
            Object value = values.get((i + index) % values.size());
            assertNotSame(value, roundTrip(value));
          }
        } catch (Throwable e) {
          failures[index] = e;
        }
      });
      threads[t].start();
    }
    for (int t = 0; t < threads.length; t++) {
      threads[t].join();
      if (failures[t] != null) {
        throw new AssertionError("thread " + t + " failed", failures[t]);
      }
    }
  }

  @Test
  void shouldSpendOneByteOnEachClassIdWhenFramingATlp() {
    var tlp = new MemWrite(Bdf.of(1, 0, 0), 1, 0, 0x1000, 64, null, 0, 0);
    int tlpBytes = kryo.toBinary(tlp).length;

    // tlpBytes holds the TLP's own id (written because the field's type is the Tlp interface);
    // the frame adds one byte of id and one of sentAt.
    assertEquals(3, kryo.toBinary(new PhysicalDown(0)).length, "one byte of id, one of sentAt, one of retraining");
    assertEquals(tlpBytes + 1 + 1, kryo.toBinary(new TlpFrame(tlp, 0)).length);
  }

  private static String messages(Throwable t) {
    StringBuilder all = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      all.append(c).append('\n');
    }
    return all.toString();
  }
}

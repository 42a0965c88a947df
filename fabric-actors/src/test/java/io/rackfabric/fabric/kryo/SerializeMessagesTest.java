package io.rackfabric.fabric.kryo;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** With serialize-messages on, every local send goes through the serializer, as remoting would. */
class SerializeMessagesTest {

  private static final ActorTestKit testKit = ActorTestKit.create("serialize-messages",
      ConfigFactory.parseString("akka.actor.serialize-messages = on")
          .withFallback(ConfigFactory.load()));

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  @Test
  void shouldDeliverEqualCopyWhenSerializeMessagesIsOn() {
    TestProbe<Tlp> probe = testKit.createTestProbe(Tlp.class);
    var sent = new MemWrite(Bdf.of(1, 2, 3), 4, 0, 0x1000, 4, new byte[] {9, 8, 7, 6}, 1, 2);

    probe.getRef().tell(sent);
    Tlp received = probe.receiveMessage();

    assertNotSame(sent, received); // proves it went through bytes
    assertTrue(WireSamples.deepEquals(sent, received), "received " + received);
  }
}

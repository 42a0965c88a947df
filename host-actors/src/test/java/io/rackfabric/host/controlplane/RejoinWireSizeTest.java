package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.typed.ActorRef;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.kryo.KryoSerializer;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.ControllerState;
import io.rackfabric.persistence.controller.JournalHistory;
import io.rackfabric.persistence.controller.PagePermission;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Every message of a rejoin, as a long journal makes it, fits in Artery's default frame (256 KiB)
 * when serialized as it crosses JVMs (Kryo, as {@code HostWireRegistrationsTest} checks): the join
 * request with its sample of the chain, each chunk of the transfer at the default {@code
 * rejoin-chunk-events}, and the answers. The same journal's whole chain, or its whole transfer
 * with the state, in one message, as before, would not.
 */
class RejoinWireSizeTest {

  private static final int FRAME = 256 * 1024;
  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final Serialization serialization = SerializationExtension.get(testKit.system().classicSystem());

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private static int wireSize(Object message) {
    assertEquals(KryoSerializer.IDENTIFIER, serialization.findSerializerFor(message).identifier(),
        message.getClass().getName());
    return serialization.serialize(message).get().length;
  }

  /** Pages opened by four CHs, as the controller journals them in a long run. */
  private static List<ControllerEvent> journal(int n) {
    List<ControllerEvent> events = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      events.add(new ControllerEvent.IommuPageOpened("ch" + (k % 4 + 1), 0x0100 * (k % 4 + 1),
          (1L << 35) + k * 4096L, PagePermission.READ_WRITE, 1_000_000L * k + 17));
    }
    return events;
  }

  @Test
  void shouldKeepEveryMessageOfTheRejoinUnderTheFrameWhenTheJournalIsLong() {
    ActorRef<ControlPlaneHost.Command> host = testKit.<ControlPlaneHost.Command>createTestProbe().ref();
    ActorRef<RejoinProtocol.TransferAnswer> answers =
        testKit.<RejoinProtocol.TransferAnswer>createTestProbe().ref();
    GuestAddress guest = new GuestAddress("mmh", testKit.<MemoryEndpoint.Command>createTestProbe().ref(),
        testKit.<GuestCall>createTestProbe().ref());
    List<ControllerEvent> all = journal(50_000);
    JournalHistory master = new JournalHistory(all);
    JournalHistory joiner = new JournalHistory(all.subList(0, 35_000));
    ControllerState state = ControllerState.empty();
    for (ControllerEvent e : all) {
      state = state.apply(e);
    }

    // Before: the whole chain in the request, every missing event and the state in one transfer.
    RejoinProtocol.JoinAsBackup wholeChain = new RejoinProtocol.JoinAsBackup("mmh", 35_000, List.of(),
        joiner.chain(), 0, host, guest);
    assertTrue(wireSize(wholeChain) > FRAME, "the whole chain: " + wireSize(wholeChain) + " bytes");
    assertTrue(wireSize(new ControlPlaneHost.Pair(50_000, state, 0, host, guest)) > FRAME,
        "the state alone exceeds the frame: it goes as a digest");
    RejoinProtocol.StateTransfer oneTransfer = new RejoinProtocol.StateTransfer(35_001, all.subList(35_000, 50_000),
        50_000, 0, 0, host, guest, answers);
    assertTrue(wireSize(oneTransfer) > FRAME, "15,000 events in one transfer: " + wireSize(oneTransfer) + " bytes");

    // Now: a bounded request, chunks of the default size, and the answers.
    RejoinProtocol.JoinAsBackup join = RejoinCheck.joinRequest("mmh", joiner, 0, host, guest);
    assertTrue(wireSize(join) < FRAME, "join request: " + wireSize(join) + " bytes");
    RejoinCheck.Admit admit = (RejoinCheck.Admit) RejoinCheck.decide(join, master);
    int chunkEvents = ControlPlaneSettings.create(testKit.system().settings().config()).rejoinChunkEvents();
    TransferChunks chunks = new TransferChunks(admit.fromSeqNr(), admit.events(), chunkEvents);
    long digest = JournalHistory.digestOf(state);
    int largest = 0;
    while (!chunks.done()) {
      TransferChunks.Chunk c = chunks.next();
      int size = wireSize(new RejoinProtocol.StateTransfer(c.fromSeqNr(), c.events(), chunks.lastSeqNr(), digest,
          38_550_000_000L, host, guest, answers));
      largest = Math.max(largest, size);
      RejoinProtocol.TransferAnswer answer = c.last()
          ? new RejoinProtocol.Joined(true, c.endSeqNr(), 38_550_030_000L, "rejoined as backup at"
              + " lastSeqNr=50000 (35000 own events, 15000 transferred in 15 chunks, 301234 bytes, 3601234 ns of model time), journal controller-mmh.tenure-2")
          : new RejoinProtocol.ChunkPersisted(c.endSeqNr(), 38_550_030_000L);
      assertTrue(wireSize(answer) < FRAME);
      assertTrue(chunks.answered(answer).isEmpty());
    }
    assertTrue(largest < FRAME, "largest chunk: " + largest + " bytes");
    System.out.printf("rejoin on the wire: whole chain %d, state %d, one transfer %d; request %d,"
        + " largest chunk %d bytes%n",
        wireSize(wholeChain), wireSize(new ControlPlaneHost.Pair(50_000, state, 0, host, guest)), wireSize(oneTransfer),
        wireSize(join), largest);
    assertEquals(15, chunks.chunks());
    // A longer journal, diverged before the master's end: the narrowing's messages are bounded too.
    List<ControllerEvent> longer = new java.util.ArrayList<>(journal(60_000));
    longer.set(31_233, journal(1).get(0)); // event 31,234 differs
    JournalHistory diverged = new JournalHistory(longer);
    RejoinCheck.Verdict v = RejoinCheck.decide(RejoinCheck.joinRequest("bmh", diverged, 0, host, guest), master);
    int rounds = 0;
    while (v instanceof RejoinCheck.Narrow n) {
      rounds++;
      assertTrue(wireSize(new RejoinProtocol.ShowDigests(n.agreed(), n.differs(), 0, host)) < FRAME);
      RejoinProtocol.Digests digests = new RejoinProtocol.Digests("bmh", n.wanted(),
          RejoinCheck.digestsAt(diverged, n.wanted()), 0);
      assertTrue(wireSize(digests) < FRAME, "digests: " + wireSize(digests) + " bytes");
      v = RejoinCheck.narrow("bmh", n, digests.seqNrs(), digests.digests(), master);
    }
    assertEquals(1, rounds);
    RejoinCheck.Refuse r = (RejoinCheck.Refuse) v;
    assertEquals(31_234, r.firstDifferingSeqNr(), r.reason());
    RejoinProtocol.JoinRefused refused = new RejoinProtocol.JoinRefused(r.reason(), r.firstDifferingSeqNr(), 0);
    assertTrue(wireSize(refused) < FRAME);
  }

  @Test
  void shouldFitTheLargestChunkTheSettingsAllowUnderTheFrame() {
    List<ControllerEvent> events = journal(ControlPlaneSettings.MAX_CHUNK_EVENTS);
    ActorRef<ControlPlaneHost.Command> host = testKit.<ControlPlaneHost.Command>createTestProbe().ref();
    int size = wireSize(new RejoinProtocol.StateTransfer(1, events, events.size(), 0, 0, host, null,
        testKit.<RejoinProtocol.TransferAnswer>createTestProbe().ref()));
    assertTrue(size < FRAME / 2, ControlPlaneSettings.MAX_CHUNK_EVENTS + " events: " + size + " bytes");
  }
}

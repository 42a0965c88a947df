package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.controlplane.RejoinProtocol.ChunkPersisted;
import io.rackfabric.host.controlplane.RejoinProtocol.Joined;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.PagePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TransferChunksTest {

  /** Events numbered from 41 to 40 + n. */
  private static List<ControllerEvent> events(int n) {
    List<ControllerEvent> out = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      out.add(new ControllerEvent.IommuPageOpened("ch1", 0x200, (1L << 35) + k * 4096L, PagePermission.READ_WRITE,
          1_000L * (k + 1)));
    }
    return out;
  }

  @Test
  void shouldEndABulkAtItsLastChunkPersistedAndRefuseAJoinedThereWhenTheTailFollows() {
    List<ControllerEvent> all = events(3);
    TransferChunks bulk = new TransferChunks(41, all, 2, false);
    assertFalse(bulk.endsTransfer());
    bulk.next();
    assertEquals(Optional.empty(), bulk.answered(new ChunkPersisted(42, 100)));
    assertTrue(bulk.next().last(), "the bulk's last chunk");
    assertEquals(Optional.empty(), bulk.answered(new ChunkPersisted(43, 200)));
    assertTrue(bulk.done(), "persisted: the tail may follow");

    TransferChunks early = new TransferChunks(41, all, 3, false);
    early.next();
    assertEquals(Optional.of("the chunk to seqNr 43 was answered Joined[ok=true, lastSeqNr=43, sentAt=100,"
        + " detail=rejoined] before the last chunk"), early.answered(new Joined(true, 43, 100, "rejoined")));
    IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
        () -> new TransferChunks(41, List.of(), 2, false));
    assertEquals("an empty bulk from seqNr 41: send the tail alone", empty.getMessage());
  }

  @Test
  void shouldSendOneChunkAtATimeAndJoinAfterTheLastWhenEachIsPersisted() {
    List<ControllerEvent> all = events(5);
    TransferChunks chunks = new TransferChunks(41, all, 2);
    assertEquals(45, chunks.lastSeqNr());

    TransferChunks.Chunk first = chunks.next();
    assertEquals(new TransferChunks.Chunk(41, all.subList(0, 2), false), first);
    IllegalStateException twice = assertThrows(IllegalStateException.class, chunks::next);
    assertEquals("chunk from seqNr 41 is not acknowledged yet", twice.getMessage());
    assertEquals(Optional.empty(), chunks.answered(new ChunkPersisted(42, 100)));

    assertEquals(new TransferChunks.Chunk(43, all.subList(2, 4), false), chunks.next());
    assertEquals(Optional.empty(), chunks.answered(new ChunkPersisted(44, 200)));
    TransferChunks.Chunk last = chunks.next();
    assertEquals(new TransferChunks.Chunk(45, all.subList(4, 5), true), last);
    assertFalse(chunks.done());
    assertEquals(Optional.empty(), chunks.answered(new Joined(true, 45, 300, "rejoined")));

    assertTrue(chunks.done());
    assertNull(chunks.failure());
    assertEquals(3, chunks.chunks());
    assertEquals(5, chunks.eventsSent());
    assertThrows(IllegalStateException.class, chunks::next);
  }

  @Test
  void shouldSendOneEmptyLastChunkWhenTheJoinerLacksNothing() {
    TransferChunks chunks = new TransferChunks(41, List.of(), 1_000);
    assertEquals(40, chunks.lastSeqNr());
    TransferChunks.Chunk only = chunks.next();
    assertEquals(new TransferChunks.Chunk(41, List.of(), true), only);
    assertEquals(40, only.endSeqNr());
    assertEquals(Optional.empty(), chunks.answered(new Joined(true, 40, 30, "rejoined")));
    assertTrue(chunks.done());
  }

  @Test
  void shouldFailTheTransferWhenAChunkIsRefused() {
    TransferChunks chunks = new TransferChunks(41, events(5), 2);
    chunks.next();
    assertEquals(Optional.empty(), chunks.answered(new ChunkPersisted(42, 100)));
    chunks.next();
    Optional<String> problem =
        chunks.answered(new Joined(false, 42, 200, "the new journal did not write the transfer"));
    assertEquals(Optional.of("the new journal did not write the transfer"), problem);
    assertEquals("the new journal did not write the transfer", chunks.failure());
    assertFalse(chunks.done());
    IllegalStateException after = assertThrows(IllegalStateException.class, chunks::next);
    assertEquals("the transfer is over: the new journal did not write the transfer", after.getMessage());
  }

  @Test
  void shouldFailTheTransferWhenAnAcknowledgementDoesNotMatchTheChunk() {
    TransferChunks wrongEnd = new TransferChunks(41, events(5), 2);
    wrongEnd.next();
    assertEquals(Optional.of("the joiner's journal ends at seqNr 41, the chunk at 42"),
        wrongEnd.answered(new ChunkPersisted(41, 100)));

    TransferChunks earlyJoin = new TransferChunks(41, events(5), 2);
    earlyJoin.next();
    assertTrue(earlyJoin.answered(new Joined(true, 42, 100, "rejoined")).orElseThrow()
        .contains("was answered Joined[ok=true, lastSeqNr=42, sentAt=100, detail=rejoined] before the last chunk"));

    TransferChunks lastAcked = new TransferChunks(41, events(1), 2);
    lastAcked.next();
    assertEquals(Optional.of("the last chunk was answered ChunkPersisted[lastSeqNr=41, sentAt=100], not Joined"),
        lastAcked.answered(new ChunkPersisted(41, 100)));

    TransferChunks unasked = new TransferChunks(41, events(1), 2);
    assertTrue(unasked.answered(new ChunkPersisted(41, 100)).orElseThrow().startsWith("an answer with no chunk"));
  }

  @Test
  void shouldSendNothingMoreWhenTheJoinerDidNotAnswerInTime() {
    TransferChunks chunks = new TransferChunks(41, events(5), 2);
    chunks.next();
    chunks.fail("no answer: timeout");
    assertEquals("no answer: timeout", chunks.failure());
    assertThrows(IllegalStateException.class, chunks::next);
    assertTrue(chunks.answered(new ChunkPersisted(42, 100)).orElseThrow().startsWith("an answer after the transfer"));
  }

  @Test
  void shouldRefuseAChunkSizeBelowOne() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new TransferChunks(41, events(1), 0));
    assertEquals("chunkEvents=0 must be at least 1", e.getMessage());
  }
}

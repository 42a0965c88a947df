package io.rackfabric.host.device.disk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.device.disk.CompletionEntry.Status;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.junit.jupiter.api.Test;

/**
 * The disk's engine stepped by hand with model times; host memory is a byte array here that
 * answers the engine's reads after a fixed latency and keeps its writes. No actors.
 */
class DiskEngineTest {

  static final int MAX_PAYLOAD = 256;
  static final long LATENCY = 50;
  static final DiskSettings SETTINGS = new DiskSettings(1_000, 2_000, 512, 4, 1_000, 16, 8);
  static final long SQ = 0x1_0000;
  static final long CQ = 0x2_0000;
  static final long BUFFER = 0x4_0000;
  static final long OTHER_BUFFER = 0x6_0000;
  static final int HOST_BYTES = 1 << 20;

  record Tlp(String kind, long address, int length, long at) {}

  record Wake(long token, long at) {}

  /** Host memory and the engine's endpoint: what the engine did, in order. */
  final class Host implements DiskEngine.Bus {
    final byte[] memory = new byte[HOST_BYTES];
    final List<Tlp> tlps = new ArrayList<>();
    final ArrayDeque<Tlp> pendingReads = new ArrayDeque<>();
    final PriorityQueue<Wake> wakes = new PriorityQueue<>(Comparator.comparingLong(Wake::at));
    int maxReadsInFlight;

    @Override
    public void write(long address, byte[] data, long at) {
      tlps.add(new Tlp("write", address, data.length, at));
      System.arraycopy(data, 0, memory, (int) address, data.length);
    }

    @Override
    public void read(long address, int length, long at) {
      tlps.add(new Tlp("read", address, length, at));
      pendingReads.add(new Tlp("read", address, length, at));
      maxReadsInFlight = Math.max(maxReadsInFlight, pendingReads.size());
    }

    @Override
    public void wake(long token, long at) {
      wakes.add(new Wake(token, at));
    }

    @Override
    public void interrupt(long at) {
      tlps.add(new Tlp("msi", 0, 4, at));
    }

    void store(long address, byte[] data) {
      System.arraycopy(data, 0, memory, (int) address, data.length);
    }

    byte[] load(long address, int length) {
      return Arrays.copyOfRange(memory, (int) address, (int) address + length);
    }

    /** Answers every read and runs every wake, earliest first, until the engine is quiet. */
    List<DiskRegisters.Error> drain() {
      List<DiskRegisters.Error> fetchErrors = new ArrayList<>();
      while (!pendingReads.isEmpty() || !wakes.isEmpty()) {
        if (!pendingReads.isEmpty()) {
          Tlp r = pendingReads.poll();
          boolean inHost = r.address() + r.length() <= HOST_BYTES;
          DiskRegisters.Error e = engine.readDone(r.address(), r.at(), inHost,
              inHost ? load(r.address(), r.length()) : null, LATENCY);
          if (e != DiskRegisters.Error.NONE) {
            fetchErrors.add(e);
          }
        } else {
          Wake w = wakes.poll();
          engine.wake(w.token(), w.at());
        }
      }
      return fetchErrors;
    }

    List<Tlp> of(String kind) {
      return tlps.stream().filter(t -> t.kind().equals(kind)).toList();
    }
  }

  final Host host = new Host();
  final DiskBlocks blocks = new DiskBlocks(SETTINGS.capacityBlocks());
  final DiskEngine engine = new DiskEngine(SETTINGS, MAX_PAYLOAD, blocks, host);

  void enable(int sqSize, int cqSize) {
    assertEquals(DiskRegisters.Error.NONE, engine.enable(new DiskRegisters.Enable(SQ, sqSize, CQ, cqSize)));
  }

  /** The driver puts {@code e} into slot {@code slot} of the submission queue. */
  void submit(int slot, SubmissionEntry e) {
    host.store(SQ + (long) slot * SubmissionEntry.SIZE, e.encode());
  }

  CompletionEntry completion(int slot) {
    return CompletionEntry.decode(host.load(CQ + (long) slot * CompletionEntry.SIZE, CompletionEntry.SIZE));
  }

  static byte[] blocksOf(long lba, int count) {
    return new DiskBlocks(lba + count).read(lba, count);
  }

  @Test
  void shouldWriteTheBlockThenTheCompletionThenTheMsiWhenReadingOneBlock() {
    enable(8, 8);
    submit(0, SubmissionEntry.read(7, BUFFER, 42, 1));
    assertEquals(DiskRegisters.Error.NONE, engine.sqTailRung(1, 100));
    host.drain();

    long done = 100 + LATENCY + SETTINGS.readLatencyNs();
    assertEquals(List.of(new Tlp("read", SQ, 64, 100), new Tlp("write", BUFFER, 256, done),
        new Tlp("write", BUFFER + 256, 256, done), new Tlp("write", CQ, 16, done), new Tlp("msi", 0, 4, done)),
        host.tlps);
    assertArrayEquals(DiskBlocks.pattern(42), host.load(BUFFER, 512));
    assertEquals(new CompletionEntry(1, 7, Status.SUCCESS, true), completion(0));
    assertEquals(1, engine.completed());
  }

  @Test
  void shouldDeliverEveryBlockInMaxPayloadWritesWhenReadingEight() {
    enable(8, 8);
    submit(0, SubmissionEntry.read(8, BUFFER, 900, 8));
    engine.sqTailRung(1, 0);
    host.drain();
    assertArrayEquals(blocksOf(900, 8), host.load(BUFFER, 8 * 512));
    assertEquals(8 * 512 / MAX_PAYLOAD + 1, host.of("write").size(), "the data, then one completion entry");
    assertTrue(host.of("write").stream().allMatch(t -> t.length() <= MAX_PAYLOAD));
    assertEquals(Status.SUCCESS, completion(0).status());
  }

  @Test
  void shouldReadBackWhatItStoredWhenAWriteComesFirst() {
    enable(8, 8);
    byte[] data = new byte[4 * 512];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (i * 13 + 1);
    }
    host.store(BUFFER, data);
    submit(0, SubmissionEntry.write(1, BUFFER, 10, 4));
    engine.sqTailRung(1, 0);
    host.drain();
    List<Tlp> bufferReads = host.of("read").subList(1, host.of("read").size());
    assertEquals(4, bufferReads.size(), "512-byte read requests");
    long lastIn = LATENCY + LATENCY; // the fetch's round trip, then the reads' (all four left together)
    assertEquals(new Tlp("write", CQ, 16, lastIn + SETTINGS.writeLatencyNs()), host.of("write").get(0));
    assertEquals(4, blocks.writtenBlocks());

    submit(1, SubmissionEntry.read(2, OTHER_BUFFER, 10, 4));
    engine.sqTailRung(2, 10_000);
    host.drain();
    assertArrayEquals(data, host.load(OTHER_BUFFER, data.length));
    assertEquals(new CompletionEntry(2, 2, Status.SUCCESS, true), completion(1));
  }

  @Test
  void shouldKeepAtMostMaxOutstandingReadsInFlightWhenAWriteIsLarge() {
    enable(8, 8);
    submit(0, SubmissionEntry.write(1, BUFFER, 0, 16));
    engine.sqTailRung(1, 0);
    host.drain();
    assertEquals(1 + 16 * 512 / SETTINGS.maxReadRequest(), host.of("read").size());
    assertEquals(SETTINGS.maxOutstandingReads(), host.maxReadsInFlight);
    assertEquals(Status.SUCCESS, completion(0).status());
  }

  @Test
  void shouldCompleteWithAnErrorAndNoDataWhenTheBlocksRunPastTheEnd() {
    enable(8, 8);
    submit(0, SubmissionEntry.read(5, BUFFER, SETTINGS.capacityBlocks() - 1, 2));
    engine.sqTailRung(1, 0);
    host.drain();
    assertEquals(List.of(new Tlp("write", CQ, 16, LATENCY)), host.of("write"), "only the completion, at once");
    assertEquals(new CompletionEntry(1, 5, Status.LBA_OUT_OF_RANGE, true), completion(0));
    assertEquals(1, engine.failed());
    assertEquals(1, host.of("msi").size(), "the driver is told of a failure too");
  }

  @Test
  void shouldCompleteEachWithItsErrorWhenTheOpcodeIsUnknownOrTheCountZeroOrTooLarge() {
    enable(8, 8);
    submit(0, new SubmissionEntry(0x7F, 1, BUFFER, 0, 1));
    submit(1, SubmissionEntry.read(2, BUFFER, 0, 0));
    submit(2, SubmissionEntry.write(3, BUFFER, 0, SETTINGS.maxBlocksPerCommand() + 1));
    engine.sqTailRung(3, 0);
    host.drain();
    assertEquals(List.of(Status.INVALID_OPCODE, Status.INVALID_FIELD, Status.INVALID_FIELD),
        List.of(completion(0).status(), completion(1).status(), completion(2).status()));
    assertEquals(List.of(1, 2, 3), List.of(completion(0).commandId(), completion(1).commandId(), completion(2).commandId()));
    assertEquals(3, engine.failed());
  }

  @Test
  void shouldCompleteTheWriteWithADataTransferErrorWhenItsBufferCannotBeRead() {
    enable(8, 8);
    submit(0, SubmissionEntry.write(9, HOST_BYTES - 1024, 0, 4)); // half the buffer past host memory
    engine.sqTailRung(1, 0);
    host.drain();
    assertEquals(new CompletionEntry(1, 9, Status.DATA_TRANSFER_ERROR, true), completion(0));
    assertEquals(0, blocks.writtenBlocks(), "nothing stored");
    assertEquals(0, engine.readsInFlight(), "the stragglers' tags came back");
    assertEquals(0, engine.commandsRunning());
  }

  @Test
  void shouldFlipThePhaseBitWhenTheCompletionQueueWraps() {
    enable(8, 2);
    List<Boolean> phases = new ArrayList<>();
    List<Integer> slots = List.of(0, 1, 0, 1);
    for (int i = 0; i < slots.size(); i++) {
      submit(i, SubmissionEntry.read(i, BUFFER, i, 1));
      engine.sqTailRung(i + 1, i * 100_000L);
      host.drain();
      CompletionEntry c = completion(slots.get(i));
      assertEquals(i, c.commandId());
      phases.add(c.phase());
      assertEquals(DiskRegisters.Error.NONE, engine.cqHeadRung((i + 1) % 2, i * 100_000L + 50_000));
    }
    assertEquals(List.of(true, true, false, false), phases);
  }

  @Test
  void shouldHoldACompletionUntilTheHeadDoorbellWhenTheCompletionQueueIsFull() {
    enable(8, 2); // room for one entry
    submit(0, SubmissionEntry.read(1, BUFFER, 0, 1));
    submit(1, SubmissionEntry.read(2, OTHER_BUFFER, 1, 1));
    engine.sqTailRung(2, 0);
    host.drain();
    assertEquals(1, host.of("msi").size());
    assertEquals(1, engine.completionsWaiting());
    assertEquals(DiskRegisters.Error.NONE, engine.cqHeadRung(1, 50_000));
    assertEquals(new Tlp("write", CQ + 16, 16, 50_000), host.tlps.get(host.tlps.size() - 2));
    assertEquals(new Tlp("msi", 0, 4, 50_000), host.tlps.get(host.tlps.size() - 1));
    assertEquals(2, completion(1).commandId());
  }

  @Test
  void shouldRefuseATailThatOverrunsTheSubmissionQueueWhenItIsFull() {
    enable(4, 8);
    for (int i = 0; i < 3; i++) {
      submit(i, SubmissionEntry.read(i, BUFFER, i, 1));
    }
    assertEquals(DiskRegisters.Error.NONE, engine.sqTailRung(3, 0));
    assertEquals(DiskRegisters.Error.QUEUE_FULL, engine.sqTailRung(0, 0), "the disk has not fetched one yet");
    assertEquals(DiskRegisters.Error.BAD_DOORBELL, engine.sqTailRung(4, 0));
    host.drain();
    assertEquals(3, engine.completed());
    assertEquals(3, host.of("read").size(), "nothing fetched twice");
  }

  @Test
  void shouldRefuseDoorbellsAndQueueChangesWhenTheStateDoesNotAllowThem() {
    assertEquals(DiskRegisters.Error.NOT_ENABLED, engine.sqTailRung(1, 0));
    assertEquals(DiskRegisters.Error.BAD_QUEUE, engine.enable(new DiskRegisters.Enable(SQ, 1, CQ, 4)));
    enable(8, 8);
    assertEquals(DiskRegisters.Error.BUSY, engine.enable(new DiskRegisters.Enable(SQ, 8, CQ, 8)));
    assertEquals(DiskRegisters.Error.NONE, engine.disable());
    assertEquals(DiskRegisters.Error.NOT_ENABLED, engine.cqHeadRung(0, 0));
  }

  @Test
  void shouldAbortACommandWithoutACompletionAndDropItsLateAnswerWhenResetWhileItIsFetched() {
    enable(8, 8);
    submit(0, SubmissionEntry.read(1, BUFFER, 0, 1));
    engine.sqTailRung(1, 0);
    assertEquals(DiskRegisters.Error.NONE, engine.disable(), "a reset is never refused");
    assertEquals(1, engine.aborted());
    enable(8, 8); // set up again before the fetch's answer comes: the answer is not the new queue's
    assertEquals(List.of(), host.drain());
    assertEquals(List.of(), host.of("write"), "no data, no completion entry");
    assertEquals(0, engine.completed());

    assertEquals(DiskRegisters.Error.NONE, engine.sqTailRung(1, 500)); // the driver submits it again
    host.drain();
    assertEquals(1, engine.completed());
    assertEquals(1, completion(0).commandId());
  }

  @Test
  void shouldCompleteTheResubmittedCommandWhenTheFetchAResetAbandonedIsNeverAnswered() {
    enable(8, 8);
    submit(0, SubmissionEntry.read(1, BUFFER, 0, 1));
    engine.sqTailRung(1, 0);
    Tlp lost = host.pendingReads.poll(); // lost on a dead link: no answer ever comes
    engine.disable();
    enable(8, 8);
    engine.sqTailRung(1, 500); // the same slot, so the same address, fetched again
    Tlp again = host.pendingReads.peek();
    assertEquals(lost.address(), again.address());
    host.drain();
    assertEquals(1, engine.completed(), "the new fetch's answer is not dropped in the lost one's place");
    assertEquals(1, completion(0).commandId());
  }

  @Test
  void shouldMatchEachAnswerToItsReadWhenTheAbandonedOneComesBackAfterTheNewOne() {
    enable(8, 8);
    submit(0, SubmissionEntry.read(1, BUFFER, 0, 1));
    engine.sqTailRung(1, 0);
    Tlp old = host.pendingReads.poll();
    engine.disable();
    enable(8, 8);
    submit(0, SubmissionEntry.read(2, BUFFER, 0, 1)); // another command in the same slot
    engine.sqTailRung(1, 500);
    Tlp fresh = host.pendingReads.poll();
    engine.readDone(fresh.address(), fresh.at(), true, host.load(fresh.address(), fresh.length()), LATENCY);
    assertEquals(1, engine.commandsRunning());
    engine.readDone(old.address(), old.at(), true, SubmissionEntry.read(1, BUFFER, 0, 1).encode(), LATENCY);
    assertEquals(1, engine.commandsRunning(), "the old fetch's late answer starts nothing");
    host.drain();
    assertEquals(1, engine.completed());
    assertEquals(2, completion(0).commandId());
  }

  @Test
  void shouldCountACompletionWaitingForRoomAsAbortedNotCompletedWhenReset() {
    enable(8, 2); // a completion queue of 2 holds 1 entry
    submit(0, SubmissionEntry.read(1, BUFFER, 0, 1));
    submit(1, SubmissionEntry.read(2, BUFFER, 1, 1));
    engine.sqTailRung(2, 0);
    host.drain();
    assertEquals(1, engine.completionsWaiting(), "the second waits for the driver's head");
    engine.disable();
    assertEquals(1, engine.completed(), "only the posted one");
    assertEquals(1, engine.aborted());
    assertEquals(1, host.of("msi").size());
    assertEquals(DiskRegisters.Error.NOT_ENABLED, engine.cqHeadRung(1, 0), "nothing left to post");
  }

  @Test
  void shouldStoreNothingForAWriteResetWhileItsBufferIsRead() {
    enable(8, 8);
    byte[] data = new byte[DiskBlocks.BLOCK];
    java.util.Arrays.fill(data, (byte) 0x5A);
    host.store(BUFFER, data);
    submit(0, SubmissionEntry.write(1, BUFFER, 5, 1));
    engine.sqTailRung(1, 0);
    Tlp fetch = host.pendingReads.poll();
    engine.readDone(fetch.address(), fetch.at(), true, host.load(fetch.address(), fetch.length()), LATENCY);
    engine.disable(); // its buffer reads are out
    host.drain();
    assertEquals(0, engine.completed());
    assertEquals(List.of(), host.of("msi"));
    assertArrayEquals(DiskBlocks.pattern(5), blocks.read(5, 1), "the block was not stored: it reads as never written");
  }

  @Test
  void shouldWriteNothingForAReadWhoseMediaTimeEndsAfterAReset() {
    enable(8, 8);
    submit(0, SubmissionEntry.read(1, BUFFER, 0, 1));
    engine.sqTailRung(1, 0);
    Tlp fetch = host.pendingReads.poll();
    engine.readDone(fetch.address(), fetch.at(), true, host.load(fetch.address(), fetch.length()), LATENCY);
    assertEquals(1, engine.commandsRunning(), "the read waits for its media");
    engine.disable();
    assertEquals(0, engine.commandsRunning());
    host.drain(); // the media wake comes
    assertEquals(List.of(), host.of("write"));
    assertEquals(List.of(), host.of("msi"));
  }

  @Test
  void shouldCountAFetchFailureAndPostNothingWhenTheSubmissionQueueCannotBeRead() {
    assertEquals(DiskRegisters.Error.NONE,
        engine.enable(new DiskRegisters.Enable(HOST_BYTES, 8, CQ, 8))); // the SQ lies past host memory
    engine.sqTailRung(1, 0);
    assertEquals(List.of(DiskRegisters.Error.FETCH_FAILED), host.drain());
    assertEquals(1, engine.fetchFailures());
    assertEquals(List.of(), host.of("write"));
    assertEquals(DiskRegisters.Error.NONE, engine.sqTailRung(2, 0), "the slot is free again");
  }

  @Test
  void shouldFetchNoMoreThanMaxCommandsWhenManyAreQueued() {
    DiskSettings few = new DiskSettings(1_000, 2_000, 512, 32, 1_000, 16, 2);
    Host h = new Host();
    DiskEngine e = new DiskEngine(few, MAX_PAYLOAD, blocks, h);
    e.enable(new DiskRegisters.Enable(SQ, 8, CQ, 8));
    for (int i = 0; i < 5; i++) {
      h.store(SQ + i * 64L, SubmissionEntry.read(i, BUFFER, i, 1).encode());
    }
    e.sqTailRung(5, 0);
    assertEquals(2, h.pendingReads.size(), "two fetches for two command slots");
  }
}

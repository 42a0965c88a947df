package io.rackfabric.fabric.rootcomplex;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.PendingReads;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RootRelayTest {

  static final int ROOT = Bdf.of(0, 0, 0);
  static final int DEVICE_A = Bdf.of(2, 0, 0);
  static final int DEVICE_B = Bdf.of(3, 0, 0);
  static final AddressRange ROOT_MEMORY = AddressRange.ofSize(0x0, 0x10_0000);
  static final AddressRange BELOW = AddressRange.ofSize(0x8000_0000L, 0x20_0000);
  static final long LATENCY = 250;

  record Sent(Tlp tlp, long at) {}

  final List<Sent> sent = new ArrayList<>();

  RootRelay relay(int maxOpen) {
    return relay(maxOpen, AddressTranslation.identity());
  }

  RootRelay relay(int maxOpen, AddressTranslation translation) {
    return new RootRelay(new RootRelaySettings(LATENCY, 64, maxOpen),
        new RootRelay.Setup(List.of(BELOW), translation), () -> ROOT,
        (address, length) -> ROOT_MEMORY.containsAll(address, length), (tlp, at) -> sent.add(new Sent(tlp, at)));
  }

  static MemRead read(long address, int length, int tag) {
    return new MemRead(DEVICE_A, tag, 0, address, length, 1_000, 77);
  }

  /** B answering a read it received as a memory endpoint does: its bytes are address-derived. */
  static List<Completion> answer(MemRead r, int maxPayload) {
    List<Completion> out = new ArrayList<>();
    for (int offset = 0; offset < r.length(); offset += maxPayload) {
      int n = Math.min(maxPayload, r.length() - offset);
      out.add(new Completion(DEVICE_B, r.requester(), r.tag(), r.tc(), CompletionStatus.SUCCESSFUL,
          r.length() - offset, offset, n, bytes(r.address() + offset, n), r.originAt(), r.seq()));
    }
    return out;
  }

  static byte[] bytes(long address, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (address + i);
    }
    return b;
  }

  List<MemRead> readsSent() {
    return sent.stream().filter(s -> s.tlp() instanceof MemRead).map(s -> (MemRead) s.tlp()).toList();
  }

  @Test
  void shouldSplitA256ByteReadIntoFour64ByteReadsWhenTheAddressRoutesBackDown() {
    RootRelay relay = relay(32);

    assertTrue(relay.takes(read(0x8000_1000L, 256, 5), 2_000));

    List<MemRead> reads = readsSent();
    assertEquals(4, reads.size());
    for (int i = 0; i < 4; i++) {
      MemRead r = reads.get(i);
      assertEquals(64, r.length());
      assertEquals(0x8000_1000L + 64L * i, r.address());
      assertEquals(ROOT, r.requester());
      assertEquals(RootRelay.FIRST_TAG + i, r.tag());
      assertEquals(2_000 + LATENCY, sent.get(i).at());
    }
    assertEquals(1, relay.readsRelayed());
    assertEquals(4, relay.splitReadsIssued());
  }

  @Test
  void shouldSplitAtMultiplesOfTheSplitWhenAReadIsNotAligned() {
    RootRelay relay = relay(32);

    relay.takes(read(0x8000_1000L, 100, 5), 0);
    relay.takes(read(0x8000_2030L, 100, 6), 0);

    assertEquals(List.of(64, 36, 16, 64, 20), readsSent().stream().map(MemRead::length).toList());
    assertEquals(0x8000_2040L, readsSent().get(3).address());
  }

  @Test
  void shouldIssueSixtyFourReadsWhenTheReadIs4KiB() {
    RootRelay relay = relay(64);

    relay.takes(read(0x8000_0000L, 4096, 5), 0);

    assertEquals(64, readsSent().size());
    assertEquals(4096, readsSent().stream().mapToInt(MemRead::length).sum());
  }

  @Test
  void shouldReassembleTheOriginalReadWhenSplitCompletionsReturnOutOfOrder() {
    RootRelay relay = relay(32);
    MemRead original = read(0x8000_1000L, 256, 9);
    relay.takes(original, 0);
    List<MemRead> reads = readsSent();
    sent.clear();

    long arrival = 5_000;
    for (int i : new int[] {2, 0, 3, 1}) {
      for (Completion c : answer(reads.get(i), 32)) { // B answers in two 32-byte completions each
        assertTrue(relay.takes(c, arrival++));
      }
    }

    PendingReads<String> requester = new PendingReads<>();
    for (int t = 0; t < 9; t++) {
      requester.start("other", 4, 0);
    }
    assertEquals(9, requester.start("relayed", 256, 0));
    PendingReads.Done<String> done = null;
    for (Sent s : sent) {
      Completion c = (Completion) s.tlp();
      assertEquals(DEVICE_A, c.requester());
      assertEquals(9, c.tag());
      assertEquals(77, c.seq());
      assertEquals(s.at(), 5_000 + LATENCY + sent.indexOf(s));
      assertNull(done, "completed before its last completion");
      done = requester.complete(c, s.at());
    }
    assertEquals(8, sent.size());
    assertEquals(CompletionStatus.SUCCESSFUL, done.status());
    assertArrayEquals(bytes(0x8000_1000L, 256), done.data());
    assertEquals(0, relay.openReads());
  }

  @Test
  void shouldKeepAtMostMaxOpenReadsWhenRequestsPileUpAndIssueTheRestInOrder() {
    RootRelay relay = relay(3);

    relay.takes(read(0x8000_0000L, 256, 1), 100);
    relay.takes(read(0x8000_1000L, 128, 2), 200);

    assertEquals(3, readsSent().size());
    assertEquals(3, relay.openReads());
    assertEquals(3, relay.waitingReads());

    MemRead first = readsSent().get(0);
    sent.clear();
    relay.takes(answer(first, 256).get(0), 9_000);

    List<MemRead> next = readsSent();
    assertEquals(1, next.size());
    assertEquals(0x8000_00C0L, next.get(0).address(), "the waiting split read of the first request goes first");
    assertEquals(first.tag(), next.get(0).tag(), "the freed tag is the only one");
    assertEquals(9_000, sent.stream().filter(s -> s.tlp() instanceof MemRead).findFirst().orElseThrow().at(),
        "a waiting read goes when the tag frees, not at its earlier ready time");
    assertEquals(3, relay.openReads());
    assertEquals(2, relay.waitingReads());
  }

  @Test
  void shouldAnswerUnsupportedRequestWhenNeitherMemoryNorLinkHoldTheAddress() {
    RootRelay relay = relay(32);

    assertTrue(relay.takes(read(0x4000_0000L, 64, 3), 1_000));

    assertEquals(1, sent.size());
    Completion ur = (Completion) sent.get(0).tlp();
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, ur.status());
    assertEquals(DEVICE_A, ur.requester());
    assertEquals(3, ur.tag());
    assertEquals(1, relay.readsRefused());
    assertEquals(0, relay.splitReadsIssued());
  }

  @Test
  void shouldAnswerUnsupportedRequestWhenAReadCrossesTheEndOfTheLinksWindow() {
    RootRelay relay = relay(32);

    relay.takes(read(BELOW.limit() - 31, 64, 3), 0);

    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, ((Completion) sent.get(0).tlp()).status());
  }

  @Test
  void shouldDropAndCountAWriteWhenNeitherMemoryNorLinkHoldTheAddress() {
    RootRelay relay = relay(32);

    assertTrue(relay.takes(new MemWrite(DEVICE_A, 0, 0, 0x4000_0000L, 4, new byte[4], 0, 1), 0));

    assertTrue(sent.isEmpty());
    assertEquals(1, relay.writesDropped());
  }

  @Test
  void shouldSendAPostedWriteDownWholeWhenTheAddressRoutesBackDown() {
    RootRelay relay = relay(32);
    MemWrite w = new MemWrite(DEVICE_A, 0, 0, 0x8000_1000L, 256, bytes(0, 256), 10, 4);

    relay.takes(w, 500);

    assertEquals(List.of(new Sent(w, 500 + LATENCY)), sent);
    assertEquals(1, relay.writesRelayed());
  }

  @Test
  void shouldLeaveRequestsToTheRootWhenItsOwnMemoryHoldsThem() {
    RootRelay relay = relay(32);

    assertFalse(relay.takes(read(0x1000, 64, 1), 0));
    assertFalse(relay.takes(new MemWrite(DEVICE_A, 0, 0, 0x1000, 4, new byte[4], 0, 1), 0));
    assertFalse(relay.takes(new Completion(DEVICE_B, ROOT, 3, 0, CompletionStatus.SUCCESSFUL, 4, 0, 4, new byte[4],
        0, 0), 0), "a completion on a requester tag is the root's own");
    assertTrue(sent.isEmpty());
  }

  @Test
  void shouldTranslateTheAddressWhenTheIommuMapsIt() {
    RootRelay relay = relay(32, (requester, address, length, write) ->
        requester == DEVICE_A && address < 0x1_0000_0000L ? address + 0x8000_0000L - 0x10_0000 : AddressTranslation.FAULT);

    relay.takes(read(0x10_0000, 64, 1), 0);
    relay.takes(new MemRead(DEVICE_B, 1, 0, 0x10_0000, 64, 0, 0), 0);

    assertEquals(0x8000_0000L, readsSent().get(0).address());
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, ((Completion) sent.get(1).tlp()).status());
  }

  @Test
  void shouldAnswerOneErrorAndSwallowTheRestWhenASplitReadFails() {
    RootRelay relay = relay(2);
    relay.takes(read(0x8000_0000L, 256, 4), 0);
    List<MemRead> reads = readsSent();
    sent.clear();

    relay.takes(Completion.error(DEVICE_B, reads.get(0), CompletionStatus.COMPLETER_ABORT, 10), 10);
    relay.takes(answer(reads.get(1), 256).get(0), 11);

    assertEquals(1, sent.size(), "one error, no data, and the failed read's waiting pieces never go");
    assertEquals(CompletionStatus.COMPLETER_ABORT, ((Completion) sent.get(0).tlp()).status());
    assertEquals(0, relay.openReads());
    assertEquals(0, relay.waitingReads());
  }

  @Test
  void shouldRefuseSettingsWhenTheSplitIsNotAPowerOfTwo() {
    var e = assertThrows(IllegalArgumentException.class, () -> new RootRelaySettings(250, 100, 32));
    assertTrue(e.getMessage().contains("read-split=100"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new RootRelaySettings(250, 64, 0));
    assertThrows(IllegalArgumentException.class, () -> new RootRelaySettings(-1, 64, 32));
  }
}

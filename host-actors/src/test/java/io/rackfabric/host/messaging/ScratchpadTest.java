package io.rackfabric.host.messaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.time.EventQueue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Scratchpad registers and doorbell between two hosts over the lossy link. */
class ScratchpadTest {

  private static final long A = 0x1_0000_0000L;
  private static final long B = 0x2_0000_0000L;

  private final EventQueue clock = new EventQueue();
  private final LossyMemory link = new LossyMemory(clock, 500, A, B, 4096);
  private final Scratchpad pad = new Scratchpad(B + 0x200, 8);
  private final List<int[]> messages = new ArrayList<>();
  private final List<Integer> bits = new ArrayList<>();
  private final Scratchpad.Receiver receiver = new Scratchpad.Receiver(pad, link.local(1),
      (bit, words) -> {
        bits.add(bit);
        messages.add(words);
      });
  private final Scratchpad.Sender sender = new Scratchpad.Sender(pad, link.port());

  ScratchpadTest() {
    link.watch(pad.doorbellAddress(), receiver::onDoorbell);
  }

  @Test
  void shouldHandOnTheRegistersWhenTheDoorbellRings() {
    sender.send(3, 0xCAFE, 42, -1);
    clock.runUntil(10_000);
    assertEquals(List.of(3), bits, "doorbell bits");
    assertArrayEquals(new int[] {0xCAFE, 42, -1, 0, 0, 0, 0, 0}, messages.get(0));
  }

  @Test
  void shouldReportTheScratchpadFreeOnlyAfterTheReceiverClearedTheDoorbell() {
    link.local(1).writeInt(pad.doorbellAddress(), 1 << 5); // rung, not yet serviced
    List<Boolean> answers = new ArrayList<>();
    sender.whenChecked(answers::add);
    clock.runUntil(10_000);
    receiver.onDoorbell();
    sender.whenChecked(answers::add);
    clock.runUntil(20_000);
    assertEquals(List.of(false, true), answers);
    assertEquals(List.of(5), bits);
  }

  @Test
  void shouldDeliverNothingWhenTheDoorbellWriteIsLost() {
    // Small messages are not retransmitted: that is what the datagram service is for.
    link.dropOnce(address -> address == pad.doorbellAddress());
    sender.send(0, 7);
    clock.runUntil(10_000);
    assertEquals(0, receiver.onDoorbell(), "messages on a poll");
    assertTrue(messages.isEmpty());
  }

  @Test
  void shouldRefuseMoreWordsThanRegistersNamingTheCount() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> sender.send(0, new int[9]));
    assertTrue(e.getMessage().contains("9 words") && e.getMessage().contains("8"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> sender.send(32, 1));
    assertThrows(IllegalArgumentException.class, () -> new Scratchpad(B, 17));
  }
}

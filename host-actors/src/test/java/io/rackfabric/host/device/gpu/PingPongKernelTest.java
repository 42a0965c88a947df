package io.rackfabric.host.device.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.host.device.Pcie;
import io.rackfabric.host.device.gpu.PingPongKernel.Role;
import io.rackfabric.host.device.gpu.PingPongKernel.Setup;
import io.rackfabric.host.device.gpu.PingPongKernel.State;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ping-pong kernel stepped by hand: each arrival and read completion at an explicit model time. */
class PingPongKernelTest {

  static final AddressRange BAR1 = AddressRange.ofSize(0x8_0000_0000L, 0x1000_0000L);
  static final long OWN_WORD = 0x8_0000_0100L;
  static final long PEER_WORD = 0x9_0000_0100L;
  static final long RAM_WORD = 0x2_0000_0040L;

  /** What the kernel asked of its endpoint, as text: "write ADDR=VALUE@T", "read ADDR@T", "watch ADDR". */
  static final class Recorder implements PingPongKernel.Bus {
    final List<String> sent = new ArrayList<>();

    @Override
    public void write(long address, byte[] data, long at) {
      sent.add("write " + Long.toHexString(address) + "=" + java.nio.ByteBuffer.wrap(data)
          .order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt() + "@" + at);
    }

    @Override
    public void read(long address, int length, long at) {
      assertEquals(4, length);
      sent.add("read " + Long.toHexString(address) + "@" + at);
    }

    @Override
    public void watch(long address) {
      sent.add("watch " + Long.toHexString(address));
    }

    List<String> take() {
      List<String> out = List.copyOf(sent);
      sent.clear();
      return out;
    }
  }

  @Test
  void shouldTimeEachRoundFromItsWriteToThePongWhenPingWaitsOnItsOwnMemory() {
    Recorder bus = new Recorder();
    PingPongKernel k = new PingPongKernel(BAR1, bus);
    assertEquals(GpuRegisters.Error.NONE, k.start(new Setup(Role.PING, 3, PEER_WORD, OWN_WORD), 100));
    assertEquals(List.of("watch 800000100", "write 900000100=1@100"), bus.take());

    assertTrue(k.written(OWN_WORD, Pcie.dword(1), 600));
    assertEquals(List.of("write 900000100=2@600"), bus.take());
    assertTrue(k.written(OWN_WORD, Pcie.dword(1), 650), "a stale counter is the kernel's, but no pong");
    assertTrue(bus.take().isEmpty());
    k.written(OWN_WORD, Pcie.dword(2), 1_200);
    k.written(OWN_WORD - 4, new byte[] {0, 0, 0, 0, 3, 0, 0, 0}, 1_750); // a wider write covering the word

    assertEquals(List.of("write 900000100=3@1200"), bus.take(), "no write after the last round");
    assertEquals(State.DONE, k.state());
    assertEquals(List.of(500L, 600L, 550L), k.roundTimes());
    assertEquals(3, k.roundsDone());
    assertEquals(1_750, k.endedAt());
    assertFalse(k.polled());
  }

  @Test
  void shouldWriteEachIncreaseBackAndStopAfterCountWhenPongWaitsOnItsOwnMemory() {
    Recorder bus = new Recorder();
    PingPongKernel k = new PingPongKernel(BAR1, bus);
    k.start(new Setup(Role.PONG, 2, PEER_WORD, OWN_WORD), 0);
    assertEquals(List.of("watch 800000100"), bus.take(), "pong waits: nothing written at the start");

    k.written(OWN_WORD, Pcie.dword(1), 300);
    k.written(OWN_WORD, Pcie.dword(1), 310); // no increase
    k.written(OWN_WORD, Pcie.dword(2), 900);
    k.written(OWN_WORD, Pcie.dword(3), 1_500); // past count: the run is over

    assertEquals(List.of("write 900000100=1@300", "write 900000100=2@900"), bus.take());
    assertEquals(State.DONE, k.state());
    assertEquals(2, k.roundsDone());
    assertTrue(k.roundTimes().isEmpty());
  }

  @Test
  void shouldPollWithOneReadAtATimeAndTimeTheRoundToTheCompletionWhenTheWordIsInRam() {
    Recorder bus = new Recorder();
    PingPongKernel k = new PingPongKernel(BAR1, bus);
    k.start(new Setup(Role.PING, 2, RAM_WORD - 0x40, RAM_WORD), 1_000);
    assertEquals(List.of("write 200000000=1@1000", "read 200000040@1000"), bus.take(), "no watch outside BAR1");
    assertTrue(k.polled());

    assertTrue(k.readDone(RAM_WORD, true, Pcie.dword(0), 800)); // completes at 1800: not yet
    assertEquals(List.of("read 200000040@1800"), bus.take());
    k.readDone(RAM_WORD, true, Pcie.dword(1), 800); // at 2600: the pong
    assertEquals(List.of("write 200000000=2@2600", "read 200000040@2600"), bus.take());
    k.readDone(RAM_WORD, true, Pcie.dword(2), 900);

    assertTrue(bus.take().isEmpty(), "no read after the last round");
    assertEquals(List.of(1_600L, 900L), k.roundTimes());
    assertEquals(3, k.reads());
    assertEquals(2, k.writes());
    assertEquals(State.DONE, k.state());
  }

  @Test
  void shouldWriteBackWhatItReadAndStopPollingAfterCountWhenPongPollsRam() {
    Recorder bus = new Recorder();
    PingPongKernel k = new PingPongKernel(BAR1, bus);
    k.start(new Setup(Role.PONG, 1, RAM_WORD + 4, RAM_WORD), 0);
    assertEquals(List.of("read 200000040@0"), bus.take());
    k.readDone(RAM_WORD, true, Pcie.dword(0), 700);
    k.readDone(RAM_WORD, true, Pcie.dword(1), 700);

    assertEquals(List.of("read 200000040@700", "write 200000044=1@1400"), bus.take());
    assertEquals(State.DONE, k.state());
    assertEquals(1_400, k.endedAt());
  }

  @Test
  void shouldEndInErrorAndStopPollingWhenAPollCompletesWithAnError() {
    Recorder bus = new Recorder();
    PingPongKernel k = new PingPongKernel(BAR1, bus);
    k.start(new Setup(Role.PONG, 5, RAM_WORD + 4, RAM_WORD), 0);
    bus.take();
    k.readDone(RAM_WORD, false, null, 400);

    assertEquals(State.ERROR, k.state());
    assertEquals(400, k.endedAt());
    assertTrue(bus.take().isEmpty());
  }

  @Test
  void shouldEndInErrorWhenItsPartnerStoppedAndNoPollSeesProgressForAMillionPolls() {
    Recorder bus = new Recorder();
    PingPongKernel k = new PingPongKernel(BAR1, bus);
    k.start(new Setup(Role.PONG, 5, RAM_WORD + 4, RAM_WORD), 0);
    long t = 0;
    for (long i = 1; i < PingPongKernel.POLLS_WITHOUT_PROGRESS; i++) {
      t += 700;
      k.readDone(RAM_WORD, true, Pcie.dword(0), 700);
      if (i % 10_000 == 0) {
        bus.take(); // keeps the recorder small
      }
    }
    assertEquals(State.RUNNING, k.state(), "one poll short of the bound it still polls");
    k.readDone(RAM_WORD, true, Pcie.dword(0), 700);
    assertEquals(State.ERROR, k.state());
    assertEquals(t + 700, k.endedAt());
  }

  @Test
  void shouldLeaveOtherReadsAndWritesToTheCopyEngineWhenTheyAreNotTheKernels() {
    PingPongKernel k = new PingPongKernel(BAR1, new Recorder());
    assertFalse(k.readDone(RAM_WORD, true, Pcie.dword(1), 10), "nothing polled yet");
    k.start(new Setup(Role.PONG, 5, RAM_WORD + 4, RAM_WORD), 0);
    assertFalse(k.readDone(RAM_WORD + 0x100, true, new byte[512], 10));
    assertFalse(k.written(OWN_WORD, Pcie.dword(1), 10), "a polling kernel watches nothing");
  }

  @Test
  void shouldRefuseADoorbellWhileRunningAndWatchAWordOnceWhenRunAgain() {
    Recorder bus = new Recorder();
    PingPongKernel k = new PingPongKernel(BAR1, bus);
    Setup s = new Setup(Role.PONG, 1, PEER_WORD, OWN_WORD);
    k.start(s, 0);
    assertEquals(GpuRegisters.Error.BUSY, k.start(s, 10));
    k.written(OWN_WORD, Pcie.dword(1), 20);
    bus.take();

    assertEquals(GpuRegisters.Error.NONE, k.start(new Setup(Role.PING, 1, PEER_WORD, OWN_WORD), 30));
    assertEquals(List.of("write 900000100=1@30"), bus.take(), "the word is watched already");
  }
}

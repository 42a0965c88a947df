package io.rackfabric.host.device.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The copy engine stepped by hand with model times, its endpoint a recording: no actors (as
 * Aeron's DriverConductorTest drives its conductor).
 */
class DmaCopyEngineTest {

  static final AddressRange DEVICE_MEMORY = new AddressRange(0x2000_0000L, 0x200F_FFFFL);
  static final int MAX_PAYLOAD = 256;
  static final GpuSettings SETTINGS = new GpuSettings(100, 512, 4, 1 << 20);

  record Tlp(String kind, long address, int length, long at) {}

  /** The endpoint as the engine sees it: what it was asked, in order. */
  static final class RecordingBus implements DmaCopyEngine.Bus {
    final List<Tlp> tlps = new ArrayList<>();
    final List<Tlp> stores = new ArrayList<>();
    final List<byte[]> written = new ArrayList<>();
    int loads;

    @Override
    public void write(long address, byte[] data, long at) {
      tlps.add(new Tlp("write", address, data.length, at));
      written.add(data);
    }

    @Override
    public void read(long address, int length, long at) {
      tlps.add(new Tlp("read", address, length, at));
    }

    @Override
    public void store(long deviceAddress, byte[] data) {
      stores.add(new Tlp("store", deviceAddress, data.length, -1));
    }

    @Override
    public void load(long deviceAddress, int length) {
      loads++;
    }
  }

  final RecordingBus bus = new RecordingBus();
  final DmaCopyEngine engine = new DmaCopyEngine(DEVICE_MEMORY, MAX_PAYLOAD, SETTINGS, bus);

  DmaCopyEngine.Started start(long src, long dst, long length, long at) {
    return assertInstanceOf(DmaCopyEngine.Started.class,
        engine.start(new GpuRegisters.Doorbell(src, dst, length), at));
  }

  static byte[] pattern(int length) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) (i * 7 + 3);
    }
    return b;
  }

  /** An out copy of {@code length} bytes to bus address {@code dst}: its writes. */
  List<Tlp> copyOut(long dst, int length) {
    DmaCopyEngine.Started s = start(DEVICE_MEMORY.base(), dst, length, 1_000);
    assertEquals(DmaCopyEngine.Direction.OUT, s.direction());
    assertEquals(1_000 + SETTINGS.setupNs(), s.firstTlpAt());
    engine.setupDone(s.copy(), s.firstTlpAt());
    assertEquals(1, bus.loads);
    DmaCopyEngine.Finished f = engine.sourceLoaded(pattern(length));
    assertEquals(new DmaCopyEngine.Finished(s.copy(), true, length, s.firstTlpAt()), f);
    assertFalse(engine.busy());
    return bus.tlps;
  }

  @Test
  void shouldWriteOneTlpWhenTheCopyIsBelowMaxPayload() {
    assertEquals(List.of(new Tlp("write", 0x8000, 100, 1_100)), copyOut(0x8000, 100));
  }

  @Test
  void shouldWriteOneTlpWhenTheCopyIsExactlyMaxPayload() {
    assertEquals(List.of(new Tlp("write", 0x8000, 256, 1_100)), copyOut(0x8000, 256));
  }

  @Test
  void shouldSplitAtMaxPayloadWhenTheCopyIsAbove() {
    assertEquals(List.of(new Tlp("write", 0x8000, 256, 1_100), new Tlp("write", 0x8100, 1, 1_100)),
        copyOut(0x8000, 257));
  }

  @Test
  void shouldNeverCrossA4KiBBoundaryWhenTheDestinationIsUnaligned() {
    List<Tlp> writes = copyOut(0x8F80, 512); // 128 bytes to the boundary at 0x9000
    assertEquals(List.of(new Tlp("write", 0x8F80, 128, 1_100), new Tlp("write", 0x9000, 256, 1_100),
        new Tlp("write", 0x9100, 128, 1_100)), writes);
    for (Tlp t : writes) {
      assertEquals(t.address() / 4096, (t.address() + t.length() - 1) / 4096, t + " crosses 4 KiB");
    }
  }

  @Test
  void shouldWriteTheSourceBytesInOrderWhenCopyingOut() {
    copyOut(0x8000, 1000);
    byte[] joined = new byte[1000];
    int at = 0;
    for (byte[] w : bus.written) {
      System.arraycopy(w, 0, joined, at, w.length);
      at += w.length;
    }
    assertArrayEquals(pattern(1000), joined);
  }

  @Test
  void shouldKeepAtMostTheReadWindowInFlightAndIssueTheNextAtEachArrival() {
    DmaCopyEngine.Started s = start(0x4000, DEVICE_MEMORY.base(), 8 * 512, 0);
    assertEquals(DmaCopyEngine.Direction.IN, s.direction());
    engine.setupDone(s.copy(), 100);
    assertEquals(SETTINGS.maxOutstandingReads(), bus.tlps.size(), "the window");
    for (int i = 0; i < 4; i++) {
      assertEquals(new Tlp("read", 0x4000 + 512L * i, 512, 100), bus.tlps.get(i));
    }
    assertEquals(4, engine.readsInFlight());

    // The first read's data arrives 800 ns after it left: stored, and the fifth read goes then.
    assertNull(engine.readDone(0x4000, true, pattern(512), 800));
    assertEquals(new Tlp("store", DEVICE_MEMORY.base(), 512, -1), bus.stores.get(0));
    assertEquals(new Tlp("read", 0x4000 + 512L * 4, 512, 900), bus.tlps.get(4));
    assertEquals(512, engine.bytesDone());

    DmaCopyEngine.Finished f = null;
    for (int i = 1; i < 8; i++) {
      f = engine.readDone(0x4000 + 512L * i, true, pattern(512), 1_000 + i);
      assertEquals(i < 7, f == null);
    }
    assertEquals(8, bus.tlps.size());
    // The last read left at the arrival of the fourth (issued at 100, 1,003 ns later).
    assertEquals(new DmaCopyEngine.Finished(s.copy(), true, 8 * 512, 1_103 + 1_007), f);
    assertEquals(DEVICE_MEMORY.base() + 7 * 512, bus.stores.get(7).address());
  }

  @Test
  void shouldSplitReadsAtMaxReadRequestAndAt4KiBBoundaries() {
    DmaCopyEngine.Started s = start(0x4F00, DEVICE_MEMORY.base(), 1024, 0);
    engine.setupDone(s.copy(), 100);
    assertEquals(List.of(new Tlp("read", 0x4F00, 256, 100), new Tlp("read", 0x5000, 512, 100),
        new Tlp("read", 0x5200, 256, 100)), bus.tlps);
  }

  @Test
  void shouldEndTheCopyWithAnErrorWhenAReadCompletesWithAnErrorStatus() {
    DmaCopyEngine.Started s = start(0x4000, DEVICE_MEMORY.base(), 4 * 512, 0);
    engine.setupDone(s.copy(), 100);
    assertNull(engine.readDone(0x4000, true, pattern(512), 500));
    DmaCopyEngine.Finished f = engine.readDone(0x4200, false, null, 600);

    assertEquals(new DmaCopyEngine.Finished(s.copy(), false, 512, 700), f);
    assertFalse(engine.busy());
    assertEquals(1, engine.failedCopies());
    // The failed copy's other reads come back later: no store, no new read, nothing finished.
    int tlps = bus.tlps.size();
    assertNull(engine.readDone(0x4400, true, pattern(512), 700));
    assertEquals(1, bus.stores.size());
    assertEquals(tlps, bus.tlps.size());
  }

  @Test
  void shouldNotTakeAFailedCopysStragglerForTheNextCopysRead() {
    DmaCopyEngine.Started first = start(0x4000, DEVICE_MEMORY.base(), 2 * 512, 0);
    engine.setupDone(first.copy(), 100);
    engine.readDone(0x4000, false, null, 300); // fails; the read of 0x4200 is still out
    DmaCopyEngine.Started second = start(0x4200, DEVICE_MEMORY.base(), 512, 1_000);
    engine.setupDone(second.copy(), 1_100);
    assertEquals(new Tlp("read", 0x4200, 512, 1_100), bus.tlps.get(bus.tlps.size() - 1));

    assertNull(engine.readDone(0x4200, true, pattern(512), 2_000), "the first copy's read, oldest first");
    DmaCopyEngine.Finished f = engine.readDone(0x4200, true, pattern(512), 500);
    assertEquals(new DmaCopyEngine.Finished(second.copy(), true, 512, 1_600), f);
  }

  @Test
  void shouldHoldTheNextCopysReadsToItsSetupsEndWhenAFailedCopysReadReturnsDuringIt() {
    DmaCopyEngine.Started first = start(0x4000, DEVICE_MEMORY.base(), 2 * 512, 0);
    engine.setupDone(first.copy(), 100);
    engine.readDone(0x4000, false, null, 300); // fails; the read of 0x4200 is still out
    DmaCopyEngine.Started second = start(0x8000, DEVICE_MEMORY.base(), 512, 1_000);
    int tlps = bus.tlps.size();
    assertNull(engine.readDone(0x4200, true, pattern(512), 950), "the first copy's straggler, at 1,050");
    assertEquals(tlps, bus.tlps.size(), "no read before the second copy's setup ends at 1,100");
    engine.setupDone(second.copy(), 1_100);
    assertEquals(new Tlp("read", 0x8000, 512, 1_100), bus.tlps.get(bus.tlps.size() - 1));
  }

  @Test
  void shouldRefuseADoorbellWhileBusyAndGoOnWithTheRunningCopy() {
    DmaCopyEngine.Started s = start(0x4000, DEVICE_MEMORY.base(), 512, 0);
    assertEquals(new DmaCopyEngine.Refused(GpuRegisters.Error.BUSY),
        engine.start(new GpuRegisters.Doorbell(0x8000, DEVICE_MEMORY.base(), 64), 50));
    engine.setupDone(s.copy(), 100);
    assertEquals(List.of(new Tlp("read", 0x4000, 512, 100)), bus.tlps);
    assertTrue(engine.readDone(0x4000, true, pattern(512), 100).ok());
  }

  @Test
  void shouldRefuseBadLengthsAndCopiesWithNoSideInDeviceMemory() {
    long dev = DEVICE_MEMORY.base();
    assertEquals(new DmaCopyEngine.Refused(GpuRegisters.Error.BAD_LENGTH),
        engine.start(new GpuRegisters.Doorbell(dev, 0x8000, 0), 0));
    assertEquals(new DmaCopyEngine.Refused(GpuRegisters.Error.BAD_LENGTH),
        engine.start(new GpuRegisters.Doorbell(dev, 0x8000, SETTINGS.maxCopyBytes() + 1L), 0));
    assertEquals(new DmaCopyEngine.Refused(GpuRegisters.Error.OUTSIDE_DEVICE_MEMORY),
        engine.start(new GpuRegisters.Doorbell(0x4000, 0x8000, 64), 0));
    assertEquals(new DmaCopyEngine.Refused(GpuRegisters.Error.OUTSIDE_DEVICE_MEMORY),
        engine.start(new GpuRegisters.Doorbell(dev, dev + 0x1000, 64), 0), "local copies are not built");
    assertEquals(new DmaCopyEngine.Refused(GpuRegisters.Error.OUTSIDE_DEVICE_MEMORY),
        engine.start(new GpuRegisters.Doorbell(DEVICE_MEMORY.limit() - 10, 0x8000, 64), 0), "runs past BAR1");
    assertFalse(engine.busy());
    assertTrue(bus.tlps.isEmpty());
  }

  @Test
  void shouldFailRatherThanHangWhenDeviceMemoryCannotBeRead() {
    DmaCopyEngine.Started s = start(DEVICE_MEMORY.base(), 0x8000, 64, 0);
    engine.setupDone(s.copy(), 100);
    assertEquals(new DmaCopyEngine.Finished(s.copy(), false, 0, 100), engine.sourceLoaded(null));
    assertTrue(bus.tlps.isEmpty());
  }
}

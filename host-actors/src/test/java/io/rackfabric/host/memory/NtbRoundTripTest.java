package io.rackfabric.host.memory;

import static io.rackfabric.host.memory.Plane.PRIMARY;
import static io.rackfabric.host.memory.Plane.SECONDARY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.ntb.NtbTranslation;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The NTB BARs the layout hands out, applied the way the data plane applies them, must land where
 * {@link GlobalMemoryLayout#chAddress} says: CH address -> the viewer's virtual-side BAR -> MH
 * address -> the target's link-side BAR -> offset in the target's memory.
 */
class NtbRoundTripTest {

  private static final long G = 1L << 30;
  private static final long T = 1L << 40;
  private static final long L = 32 * G;

  private final GlobalMemoryLayout layout = GlobalMemoryLayout.paper(3);

  @Test
  void shouldProgramThePapersBarsWhenAskedForCh2() {
    NtbProgramming primary = layout.ntbProgramming(2, PRIMARY);
    assertEquals(List.of(new NtbBar(new AddressRange(64 * G, 96 * G - 1), 0)), primary.linkBars());
    assertEquals(List.of(new NtbBar(new AddressRange(L, L + T - 1), 0)), primary.virtualBars());
    NtbProgramming secondary = layout.ntbProgramming(2, SECONDARY);
    assertEquals(List.of(new NtbBar(new AddressRange(T + 64 * G, T + 96 * G - 1), 0)),
        secondary.linkBars());
    assertEquals(List.of(new NtbBar(new AddressRange(L + T, L + 2 * T - 1), T)),
        secondary.virtualBars());
  }

  @Test
  void shouldLandOnTheTargetOffsetWhenPushedThroughTheBarsOfBothNtbs() {
    long[] offsets = {0, 0x40, L - 1};
    for (Plane plane : Plane.values()) {
      for (int viewer = 1; viewer <= 3; viewer++) {
        NtbBar out = layout.ntbProgramming(viewer, plane).virtualBars().get(0);
        for (int target = 1; target <= 3; target++) {
          if (target == viewer) {
            continue; // no path: it would re-enter the NTB port it left by
          }
          NtbBar in = layout.ntbProgramming(target, plane).linkBars().get(0);
          for (long offset : offsets) {
            long chAddress = layout.chAddress(viewer, target, offset, plane);
            String at = "CH" + viewer + " -> CH" + target + " " + plane + " +" + offset;
            assertEquals(true, out.window().contains(chAddress), at);
            long mh = out.translate(chAddress);
            assertEquals(layout.mhAddress(target, offset, plane), mh, at);
            assertEquals(true, in.window().contains(mh), at);
            assertEquals(offset, in.translate(mh), at);
          }
        }
      }
    }
  }

  @Test
  void shouldReachCh2OffsetWhenAWriteCrossesCh1sAndCh2sNtbTranslations() {
    for (Plane plane : Plane.values()) {
      // CH1's port: the write arrives from CH1's domain at the virtual side (toLink)
      NtbTranslation ch1 = new NtbTranslation(
          layout.ntbProgramming(1, plane).toConfig(Bdf.of(1, 0, 0)), 3, 1);
      // CH2's port: the write leaves the MH's domain at the link side (toVirtual)
      NtbTranslation ch2 = new NtbTranslation(
          layout.ntbProgramming(2, plane).toConfig(Bdf.of(1, 0, 0)), 3, 2);
      long address = layout.chAddress(1, 2, 0x40, plane);

      Tlp inMh = ch1.toLink(write(address));
      assertNotNull(inMh, plane + ": CH1's virtual-side BAR must claim " + Long.toHexString(address));
      assertEquals(layout.mhAddress(2, 0x40, plane), ((MemWrite) inMh).address(), plane.name());
      Tlp inCh2 = ch2.toVirtual(inMh);
      assertNotNull(inCh2, plane + ": CH2's link-side BAR must claim the MH address");
      assertEquals(0x40, ((MemWrite) inCh2).address(), plane.name());

      // and CH1's own link-side BAR does not claim CH2's range: the write goes to CH2 only
      assertNull(ch1.toVirtual(inMh), plane.name());
    }
  }

  @Test
  void shouldReachTheMhsMemoryWhenACh1WriteCrossesItsPrimaryNtbOnly() {
    NtbTranslation ch1 = new NtbTranslation(
        layout.ntbProgramming(1, PRIMARY).toConfig(Bdf.of(1, 0, 0)), 3, 1);
    Tlp inMh = ch1.toLink(write(layout.chAddress(1, 0, 0x1000, PRIMARY)));
    assertEquals(0x1000, ((MemWrite) inMh).address());
  }

  private static MemWrite write(long address) {
    return new MemWrite(Bdf.of(0, 0, 0), 1, 0, address, 4, null, 0, 0);
  }
}

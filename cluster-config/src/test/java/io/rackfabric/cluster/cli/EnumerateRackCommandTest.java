package io.rackfabric.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code rack enumerate}, through the {@code rack} dispatcher, on the bundled topologies. */
class EnumerateRackCommandTest {

  private final RackRun rack = new RackRun();

  @Test
  void shouldPrintFigureSixsNumbersAndExitZeroWhenMultipeer16InSlotMode() {
    assertEquals(0, enumerate("--topology", "multipeer16", "--mode", "slot"), rack.err());
    String o = rack.out();
    assertTrue(o.startsWith("Enumeration from rc (slot mode): 21 functions, "), o);
    assertTrue(o.contains("+-01:03.0  downstream port 10b5:8748  [4-4]  slot slots/3\n"
        + "| \\-04:00.0  endpoint 1af4:10f0  BAR0 1MiB @0x8020_0000\n"), o);
    assertTrue(o.contains("  slots  5     01:05.0   6      0x8040_0000..0x804F_FFFF (1MiB)  no\n"), o);
    assertEquals("", rack.err());
  }

  @Test
  void shouldEnumerateEveryRootOfLadonTestbedWhenNoHostIsGiven() {
    assertEquals(0, enumerate("--topology", "ladon-testbed", "--mode", "slot"), rack.err());
    String o = rack.out();
    for (String root : List.of("mmh", "bmh", "ch1", "ch2")) {
      assertTrue(o.contains("Enumeration from " + root + " (slot mode)"), o);
    }
    assertTrue(o.contains("  nt-pri/pms1  2     04:02.0   4      0x10_0000_0000..0x17_FFFF_FFFF (32GiB)"), o);
  }

  @Test
  void shouldExitOneListingProblemsWhenASlotHasTooFewBuses() {
    assertEquals(1, enumerate("--topology", "fig1", "--host", "rc", "--mode", "slot"));
    // Slot 2 keeps one bus (Multi-peer's default), but Sw2 behind it needs three.
    assertTrue(rack.out().contains("Problems\n  03:00.0 [00.0/02.0/00.0]: no bus number left (last 3): not scanned\n"), rack.out());
    assertTrue(rack.out().contains("  03:00.0   00.0/02.0/00.0  upstream port    3/4/5"), "left as it was: " + rack.out());
  }

  @Test
  void shouldExitTwoNamingTheValueWhenFlagsOrHostAreBad() {
    assertEquals(2, enumerate("--topology", "multipeer16", "--host", "epp3"));
    assertEquals("rack enumerate: --host=epp3 is not a root complex (roots: rc)\n", rack.err());
    rack.resetErr();
    assertEquals(2, enumerate("--topology", "multipeer16", "--host", "nope"));
    assertEquals("rack enumerate: --host=nope is not in multipeer16.conf (roots: rc)\n", rack.err());
    rack.resetErr();
    assertEquals(2, enumerate("--topology", "multipeer16", "--mode", "fast"));
    assertEquals("rack enumerate: --mode=fast not in {dynamic, slot}\n", rack.err());
    rack.resetErr();
    assertEquals(2, enumerate("--topology", "multipeer16", "--slot-size", "100KiB"));
    assertEquals("rack enumerate: slot-size=102400 is not a positive multiple of 1MiB\n", rack.err());
    rack.resetErr();
    assertEquals(2, enumerate("--mode", "slot"));
    assertEquals("rack enumerate: --topology is required\n", rack.err());
    rack.resetErr();
    assertEquals(2, enumerate("--topology", "multipeer16", "--verbose"));
    assertTrue(rack.err().startsWith("rack enumerate: Unknown option: '--verbose'"), rack.err());
    rack.resetErr();
    assertEquals(2, enumerate("--topology", "no-such-rack"));
    assertTrue(rack.err().startsWith("rack enumerate: "), rack.err());
    assertEquals("", rack.out());
  }

  @Test
  void shouldPrintUsageWhenAskedForHelp() {
    assertEquals(0, enumerate("--help"));
    assertTrue(rack.out().startsWith("Usage: rack enumerate"), rack.out());
    for (String flag : java.util.List.of("--topology", "--host", "--mode", "--slot-size", "--buses-per-slot")) {
      assertTrue(rack.out().contains(flag), flag + " in\n" + rack.out());
    }
  }

  private int enumerate(String... args) {
    return rack.run("enumerate", args);
  }

}

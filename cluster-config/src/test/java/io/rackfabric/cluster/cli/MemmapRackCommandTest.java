package io.rackfabric.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code rack memmap}, through the {@code rack} dispatcher (which finds it as a service). */
class MemmapRackCommandTest {

  private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

  @Test
  void shouldPrintThePapersRangesAndExitZeroWhenTwoHosts() {
    assertEquals(0, memmap("--hosts", "2"), err());
    String o = out();
    assertTrue(o.contains("[32GiB, 64GiB)  0x8_0000_0000..0xF_FFFF_FFFF    32GiB   CH1 local subspace"), o);
    assertTrue(o.contains("[1TiB + 32GiB, 1TiB + 64GiB)  0x108_0000_0000..0x10F_FFFF_FFFF  32GiB   CH1"), o);
    assertTrue(o.contains("[96GiB, 128GiB)         0x18_0000_0000..0x1F_FFFF_FFFF   32GiB   CH2, 2 NTB hops"), o);
    assertTrue(o.contains("[1TiB + 96GiB, 1TiB + 128GiB)  0x118_0000_0000..0x11F_FFFF_FFFF"), o);
    assertEquals("", err());
  }

  @Test
  void shouldUseTheFlagsWhenTheyGiveAnotherLayout() {
    assertEquals(0, memmap("--hosts=3", "--local-subspace=4GiB", "--pms2-base=0x4_0000_0000",
        "--address-bits", "40", "--host", "2"), err());
    String o = out();
    assertTrue(o.startsWith("Global memory space (Ladon sections 4.1-4.2, Figure 3): 3 compute hosts,"
        + " local subspace L = 4GiB, PMS2 base P = 16GiB, 40-bit physical addresses (1TiB)"), o);
    assertTrue(o.contains("(b) CH2 physical memory space"), o);
    assertFalse(o.contains("(b) CH1 physical memory space"), o);
  }

  @Test
  void shouldPrintHostNamesWhenTheTopologyHasTheSection() {
    assertEquals(0, memmap("--topology", "ladon-testbed", "--host", "ch2"), err());
    String o = out();
    assertTrue(o.contains("[64GiB, 96GiB)  0x10_0000_0000..0x17_FFFF_FFFF  32GiB   CH2 (ch2) local subspace"), o);
    assertTrue(o.contains("(b) CH2 (ch2) physical memory space"), o);
    assertFalse(o.contains("(b) CH1 (ch1) physical memory space"), o);
  }

  @Test
  void shouldExitTwoNamingTheNumbersWhenTooManyHostsForPms1() {
    assertEquals(2, memmap("--hosts", "50"));
    assertEquals("rack memmap: hosts=50 x local-subspace=32GiB needs PMS1 of 1632GiB (with the"
        + " MH's own 32GiB) but pms2-base=1TiB; at most 31 hosts fit\n", err());
    assertEquals("", out());
  }

  @Test
  void shouldExitTwoWhenTwoPms2BasesExceedTheAddressWidth() {
    assertEquals(2, memmap("--hosts", "2", "--pms2-base", "256TiB"));
    assertEquals("rack memmap: 2 x pms2-base=256TiB = 512TiB exceeds the 48-bit physical address"
        + " space (256TiB)\n", err());
  }

  @Test
  void shouldExitTwoWhenTheLocalSubspaceIsNotPageAligned() {
    assertEquals(2, memmap("--hosts", "2", "--local-subspace", "10000", "--pms2-base", "40000KiB"));
    assertTrue(err().startsWith("rack memmap: local-subspace=10000B (0x2710) is not a multiple of"
        + " 4KiB (a page)"), err());
  }

  @Test
  void shouldExitTwoNamingTheFlagWhenASizeOrNumberIsMalformed() {
    assertEquals(2, memmap("--hosts", "2", "--local-subspace", "banana"));
    assertEquals("rack memmap: --local-subspace: 'banana' is not an address or size\n", err());
    errBytes.reset();
    assertEquals(2, memmap("--hosts", "two"));
    assertEquals("rack memmap: --hosts=two is not a whole number\n", err());
    errBytes.reset();
    assertEquals(2, memmap("--hosts", "0"));
    assertEquals("rack memmap: hosts=0: at least one compute host is needed\n", err());
  }

  @Test
  void shouldExitTwoWhenTheHostIsNotOne() {
    assertEquals(2, memmap("--hosts", "2", "--host", "3"));
    assertEquals("rack memmap: --host=3 not in [1,2]\n", err());
    errBytes.reset();
    assertEquals(2, memmap("--topology", "ladon-testbed", "--host", "ch9"));
    assertEquals("rack memmap: --host=ch9 is not a compute host number in [1,2] or one of ch1,"
        + " ch2\n", err());
  }

  @Test
  void shouldExitTwoWhenNeitherHostsNorTopologyOrBoth() {
    assertEquals(2, memmap());
    assertEquals("rack memmap: --hosts N or --topology FILE is required\n", err());
    errBytes.reset();
    assertEquals(2, memmap("--topology", "ladon-testbed", "--hosts", "4"));
    assertEquals("rack memmap: --hosts cannot be combined with --topology: the file's"
        + " global-memory section sets the layout\n", err());
    errBytes.reset();
    assertEquals(2, memmap("ladon-testbed"));
    assertTrue(err().startsWith("rack memmap: unexpected argument 'ladon-testbed'"), err());
    errBytes.reset();
    assertEquals(2, memmap("--hosts", "2", "--verbose"));
    assertTrue(err().startsWith("rack memmap: unknown flag '--verbose'"), err());
  }

  @Test
  void shouldExitTwoWhenTheTopologyHasNoSection() {
    assertEquals(2, memmap("--topology", "demo"));
    assertEquals("rack memmap: demo.conf has no global-memory section (see topologies/README.md;"
        + " bundled with one: ladon-testbed)\n", err());
  }

  @Test
  void shouldThrowUsageExceptionWhenRunDirectlyWithBadNumbers() {
    UsageException e = assertThrows(UsageException.class,
        () -> new MemmapRackCommand().run(List.of("--hosts", "2", "--address-bits", "20"), out, err));
    assertEquals("address-bits=20 not in [32,64]", e.getMessage());
  }

  @Test
  void shouldPrintUsageAndExitZeroWhenAskedForHelp() {
    assertEquals(0, memmap("--help"));
    assertTrue(out().startsWith("usage: rack memmap --hosts N"), out());
  }

  private int memmap(String... args) {
    List<String> all = new ArrayList<>();
    all.add("memmap");
    all.addAll(List.of(args));
    return Rack.run(all, out, err);
  }

  private String out() {
    return outBytes.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
  }
}

package io.rackfabric.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code rack memmap}, through the {@code rack} dispatcher (which finds it as a service). */
class MemmapRackCommandTest {

  private final RackRun rack = new RackRun();

  @Test
  void shouldPrintThePapersRangesAndExitZeroWhenTwoHosts() {
    assertEquals(0, memmap("--hosts", "2"), rack.err());
    String o = rack.out();
    assertTrue(o.contains("[32GiB, 64GiB)  0x8_0000_0000..0xF_FFFF_FFFF    32GiB   CH1 local subspace"), o);
    assertTrue(o.contains("[1TiB + 32GiB, 1TiB + 64GiB)  0x108_0000_0000..0x10F_FFFF_FFFF  32GiB   CH1"), o);
    assertTrue(o.contains("[96GiB, 128GiB)         0x18_0000_0000..0x1F_FFFF_FFFF   32GiB   CH2, 2 NTB hops"), o);
    assertTrue(o.contains("[1TiB + 96GiB, 1TiB + 128GiB)  0x118_0000_0000..0x11F_FFFF_FFFF"), o);
    assertEquals("", rack.err());
  }

  @Test
  void shouldUseTheFlagsWhenTheyGiveAnotherLayout() {
    assertEquals(0, memmap("--hosts=3", "--local-subspace=4GiB", "--pms2-base=0x4_0000_0000",
        "--address-bits", "40", "--host", "2"), rack.err());
    String o = rack.out();
    assertTrue(o.startsWith("Global memory space (Ladon sections 4.1-4.2, Figure 3): 3 compute hosts,"
        + " local subspace L = 4GiB, PMS2 base P = 16GiB, 40-bit physical addresses (1TiB)"), o);
    assertTrue(o.contains("(b) CH2 physical memory space"), o);
    assertFalse(o.contains("(b) CH1 physical memory space"), o);
  }

  @Test
  void shouldPrintHostNamesWhenTheTopologyHasTheSection() {
    assertEquals(0, memmap("--topology", "ladon-testbed", "--host", "ch2"), rack.err());
    String o = rack.out();
    assertTrue(o.contains("[64GiB, 96GiB)  0x10_0000_0000..0x17_FFFF_FFFF  32GiB   CH2 (ch2) local subspace"), o);
    assertTrue(o.contains("(b) CH2 (ch2) physical memory space"), o);
    assertFalse(o.contains("(b) CH1 (ch1) physical memory space"), o);
  }

  @Test
  void shouldExitTwoNamingTheNumbersWhenTooManyHostsForPms1() {
    assertEquals(2, memmap("--hosts", "50"));
    assertEquals("rack memmap: hosts=50 x local-subspace=32GiB needs PMS1 of 1632GiB (with the"
        + " MH's own 32GiB) but pms2-base=1TiB; at most 31 hosts fit\n", rack.err());
    assertEquals("", rack.out());
  }

  @Test
  void shouldExitTwoWhenTwoPms2BasesExceedTheAddressWidth() {
    assertEquals(2, memmap("--hosts", "2", "--pms2-base", "256TiB"));
    assertEquals("rack memmap: 2 x pms2-base=256TiB = 512TiB exceeds the 48-bit physical address"
        + " space (256TiB)\n", rack.err());
  }

  @Test
  void shouldExitTwoWhenTheLocalSubspaceIsNotPageAligned() {
    assertEquals(2, memmap("--hosts", "2", "--local-subspace", "10000", "--pms2-base", "40000KiB"));
    assertTrue(rack.err().startsWith("rack memmap: local-subspace=10000B (0x2710) is not a multiple of"
        + " 4KiB (a page)"), rack.err());
  }

  @Test
  void shouldExitTwoNamingTheFlagWhenASizeOrNumberIsMalformed() {
    assertEquals(2, memmap("--hosts", "2", "--local-subspace", "banana"));
    assertTrue(rack.err().startsWith("rack memmap: Invalid value for option '--local-subspace': 'banana' is not an"
        + " address or size"), rack.err());
    rack.resetErr();
    assertEquals(2, memmap("--hosts", "two"));
    assertTrue(rack.err().startsWith("rack memmap: Invalid value for option '--hosts': 'two' is not an int"), rack.err());
    rack.resetErr();
    assertEquals(2, memmap("--hosts", "0"));
    assertEquals("rack memmap: hosts=0: at least one compute host is needed\n", rack.err());
  }

  @Test
  void shouldExitTwoWhenTheHostIsNotOne() {
    assertEquals(2, memmap("--hosts", "2", "--host", "3"));
    assertEquals("rack memmap: --host=3 not in [1,2]\n", rack.err());
    rack.resetErr();
    assertEquals(2, memmap("--topology", "ladon-testbed", "--host", "ch9"));
    assertEquals("rack memmap: --host=ch9 is not a compute host number in [1,2] or one of ch1,"
        + " ch2\n", rack.err());
  }

  @Test
  void shouldExitTwoWhenNeitherHostsNorTopologyOrBoth() {
    assertEquals(2, memmap());
    assertEquals("rack memmap: --hosts N or --topology FILE is required\n", rack.err());
    rack.resetErr();
    assertEquals(2, memmap("--topology", "ladon-testbed", "--hosts", "4"));
    assertEquals("rack memmap: --hosts cannot be combined with --topology: the file's"
        + " global-memory section sets the layout\n", rack.err());
    rack.resetErr();
    assertEquals(2, memmap("ladon-testbed"));
    assertTrue(rack.err().startsWith("rack memmap: Unmatched argument at index 1: 'ladon-testbed'"), rack.err());
    rack.resetErr();
    assertEquals(2, memmap("--hosts", "2", "--verbose"));
    assertTrue(rack.err().startsWith("rack memmap: Unknown option: '--verbose'"), rack.err());
  }

  @Test
  void shouldExitTwoWhenTheTopologyHasNoSection() {
    assertEquals(2, memmap("--topology", "demo"));
    assertEquals("rack memmap: demo.conf has no global-memory section (see topologies/README.md;"
        + " bundled with one: ladon-testbed)\n", rack.err());
  }

  @Test
  void shouldExitTwoWithTheLayoutsReasonWhenTheAddressBitsAreOutOfRange() {
    assertEquals(2, new MemmapRackCommand().run(List.of("--hosts", "2", "--address-bits", "20"), rack.out, rack.err));
    assertEquals("rack memmap: address-bits=20 not in [32,64]\n", rack.err());
  }

  @Test
  void shouldPrintUsageAndExitZeroWhenAskedForHelp() {
    assertEquals(0, memmap("--help"));
    assertTrue(rack.out().startsWith("Usage: rack memmap"), rack.out());
    for (String flag : List.of("--hosts", "--local-subspace", "--pms2-base", "--address-bits", "--host", "--topology")) {
      assertTrue(rack.out().contains(flag), flag + " in\n" + rack.out());
    }
    assertTrue(rack.out().contains("(default: 32GiB"), rack.out());
  }

  private int memmap(String... args) {
    return rack.run("memmap", args);
  }

}

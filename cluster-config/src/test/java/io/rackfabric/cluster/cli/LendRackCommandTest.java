package io.rackfabric.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code rack lend}, through the {@code rack} dispatcher. */
class LendRackCommandTest {

  private final RackRun rack = new RackRun();

  private static String pair() throws Exception {
    return Path.of(LendRackCommandTest.class.getResource("/lending/pair.conf").toURI()).toString();
  }

  @Test
  void shouldPrintEachLoanWithItsAddressesAndExitZeroWhenTheTopologyCarriesIt() throws Exception {
    assertEquals(0, rack.run("lend", "--topology", pair()), rack.err());
    String o = rack.out();
    assertTrue(o.startsWith("gpu (gpu) of lender -> borrower\n  BAR0 [0xC0000000..0xC0003FFF] at 0x1400000000"), o);
    assertTrue(o.contains("  DMA window 0xC00000000 +256MiB -> borrower 0x200000000\n"), o);
  }

  @Test
  void shouldSayWhyAndExitOneWhenTheLoanAskedForCannotBeMade() throws Exception {
    assertEquals(1, rack.run("lend", "--topology", pair(), "--device", "mem"));
    assertTrue(rack.out().contains("mem -> borrower: cannot be lent: device=mem is plain memory"), rack.out());
    assertEquals(1, rack.run("lend", "--topology", "fig1"));
    assertTrue(rack.out().contains("fig1 has no lendable device"), rack.out());
  }

  @Test
  void shouldExitTwoNamingTheValueWhenAnOptionIsBad() throws Exception {
    assertEquals(2, rack.run("lend", "--topology", pair(), "--device", "nope"));
    assertTrue(rack.err().contains("--device: nope is not an endpoint of lend-pair"), rack.err());
    rack.resetErr();
    assertEquals(2, rack.run("lend", "--topology", pair(), "--borrower", "gpu"));
    assertTrue(rack.err().contains("--borrower: gpu is not a root (a host) of lend-pair"), rack.err());
  }
}

package io.rackfabric.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.typed.ActorRef;
import io.rackfabric.persistence.controller.BarRecord;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.LendableKind;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rack lend}, through the {@code rack} dispatcher. */
class LendRackCommandTest {

  private static final long GIB = 1L << 30;

  @TempDir
  static Path runDir;

  private final RackRun rack = new RackRun();

  /** Two hosts; ch1 offers its GPU, ch2 borrows it and maps a 1 MiB buffer. */
  @BeforeAll
  static void writeJournal() throws Exception {
    List<Function<ActorRef<OperationResult>, Controller.Operation>> ops = List.of(
        r -> new Controller.AddHost("ch1", 0x0100, 0, 8 * GIB, 1_000, r),
        r -> new Controller.AddHost("ch2", 0x0200, 0, 8 * GIB, 2_000, r),
        r -> new Controller.OfferDevice("gpu1", "ch1", LendableKind.GPU,
            List.of(new BarRecord(0, 8 * GIB, 16 << 10, true)), 3_000, r),
        r -> new Controller.BorrowDevice("gpu1", "ch2", null, 96 * GIB, 8 * GIB, 0, 4_000, r),
        r -> new Controller.MapDmaBuffer("gpu1", "ch2", 4 * GIB, 1 << 20, 5_000, r));
    TestJournals.write(runDir.resolve("mmh"), "mmh", ops);
  }

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

  @Test
  void shouldPrintTheOffersLoansAndMappingsAControllerHoldsWhenGivenItsJournal() {
    assertEquals(0, rack.run("lend", "--journal", runDir.resolve("mmh").toString()), rack.err());
    String o = rack.out();
    assertTrue(o.startsWith("controller-rack1 after event 5 ("), o);
    assertTrue(o.contains("offers (1)\n  gpu1  lender=ch1 GPU"), o);
    assertTrue(o.contains("loans (1)\n  gpu1  lender=ch1 borrower=ch2 vm=- windowBase=0x1800000000"), o);
    assertTrue(o.contains("dmaMappings (1)\n  gpu1 0x0  bufferAddress=0x100000000 size=0x100000"), o);
    assertTrue(!o.contains("hosts ("), "only the lending sections: " + o);
  }

  @Test
  void shouldExitTwoWhenTopologyAndJournalAreBothOrNeitherGiven() {
    assertEquals(2, rack.run("lend"));
    assertTrue(rack.err().contains("give --topology (the loans it can carry) or --journal"), rack.err());
    rack.resetErr();
    assertEquals(2, rack.run("lend", "--journal", runDir.resolve("nothing-here").toString()));
    rack.resetErr();
    assertEquals(2, rack.run("lend", "--journal", runDir.resolve("mmh").toString(), "--device", "gpu1"));
    assertTrue(rack.err().contains("--device and --borrower go with --topology"), rack.err());
  }
}

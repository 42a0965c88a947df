package io.rackfabric.loadtests.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lending benchmark measures what it says: no speed is asserted, only what ran. */
class LendingBenchTest {

  @TempDir Path data;

  private final PrintStream quiet = new PrintStream(new ByteArrayOutputStream());

  @Test
  void shouldPersistEveryBorrowAndReturnWhenRunForAFewRounds() throws Exception {
    LendingBench.Loans r = LendingBench.loans(20, data.resolve("journal"), quiet);
    assertEquals(20, r.rounds());
    // loans() itself checks the journal holds the offer and both operations of every round.
    assertEquals(40, r.operations());
    assertTrue(r.opsPerS() > 0, r.toString());
  }

  @Test
  void shouldTimeTheBundledSweepAndReportEverySizeAndDirectionWhenItsRangeIsCut() throws Exception {
    String bundled = LendingBench.bundledSweep();
    assertTrue(bundled.contains("from = 4KiB, to = 16MiB, directions = [write, read]"), bundled);
    // 4 KiB and 8 KiB only: the same scenario, a test's worth of copies.
    String cut = bundled.replace("to = 16MiB", "to = 8KiB");
    LendingBench.Sweep s = LendingBench.sweep(cut, data.resolve("sweep"), quiet);
    assertEquals(4, s.points(), s.figures().toString());
    assertTrue(s.wallS() > 0, s.toString());
    assertTrue(s.figures().stream().allMatch(f -> f.value() > 0), s.figures().toString());
  }
}

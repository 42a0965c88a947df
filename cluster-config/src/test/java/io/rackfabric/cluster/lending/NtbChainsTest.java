package io.rackfabric.cluster.lending;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.ntb.NtbBar;
import java.util.List;
import org.junit.jupiter.api.Test;

class NtbChainsTest {

  private static final long GIB = 1L << 30;

  private static NtbBar bar(long base, long size, long to) {
    return new NtbBar(AddressRange.ofSize(base, size), to);
  }

  @Test
  void shouldFindOneAndTwoCrossingSourcesFewestCrossingsFirstWhenTranslationsChain() {
    // A link-side BAR [64GiB, +32GiB) -> 0 and a virtual-side BAR [32GiB, +1TiB) -> 0 in front of it.
    NtbChains chains = new NtbChains(List.of(bar(32 * GIB, 1L << 40, 0), bar(64 * GIB, 32 * GIB, 0)));
    List<NtbChains.Candidate> c = chains.toward(0x1000, 8 * GIB);
    assertEquals(new NtbChains.Candidate(32 * GIB + 0x1000, 8 * GIB, 1), c.get(0));
    assertEquals(new NtbChains.Candidate(64 * GIB + 0x1000, 8 * GIB, 1), c.get(1));
    assertTrue(c.contains(new NtbChains.Candidate(96 * GIB + 0x1000, 8 * GIB, 2)), c.toString());
    assertTrue(c.stream().allMatch(x -> x.crossings() <= NtbChains.MAX_CROSSINGS));
  }

  @Test
  void shouldBoundTheRoomByTheNarrowestWindowOfTheChainWhenItEndsEarly() {
    NtbChains chains = new NtbChains(List.of(bar(48 * GIB, 256L << 20, 8 * GIB)));
    List<NtbChains.Candidate> c = chains.toward(8 * GIB + (255L << 20), 1L << 40);
    assertEquals(List.of(new NtbChains.Candidate(48 * GIB + (255L << 20), 1L << 20, 1)), c);
    assertTrue(chains.toward(7 * GIB, GIB).isEmpty(), "an address no translation reaches has no source");
  }
}

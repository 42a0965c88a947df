package io.rackfabric.host.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The printed map, for the paper's two-CH example with L = 32 GiB and P = 1 TiB. */
class MemoryMapTextTest {

  private final String text =
      MemoryMapText.render(GlobalMemoryLayout.paper(2), List.of("ch1", "ch2"), 0);

  @Test
  void shouldPrintTheMhsPms1AndPms2WithEveryHostsRangeWhenTwoChs() {
    assertLine("PMS1  [0, 1TiB)  0x0..0xFF_FFFF_FFFF");
    assertLine("[0, 32GiB)", "0x0..0x7_FFFF_FFFF", "32GiB", "MH local subspace");
    assertLine("[32GiB, 64GiB)", "0x8_0000_0000..0xF_FFFF_FFFF", "32GiB",
        "CH1 (ch1) local subspace, through its primary NTB");
    assertLine("[64GiB, 96GiB)", "0x10_0000_0000..0x17_FFFF_FFFF", "32GiB",
        "CH2 (ch2) local subspace, through its primary NTB");
    assertLine("PMS2  [1TiB, 2TiB)  0x100_0000_0000..0x1FF_FFFF_FFFF");
    assertLine("[1TiB + 32GiB, 1TiB + 64GiB)", "0x108_0000_0000..0x10F_FFFF_FFFF", "32GiB",
        "CH1 (ch1) local subspace, through its secondary NTB");
    assertLine("[1TiB + 64GiB, 1TiB + 96GiB)", "0x110_0000_0000..0x117_FFFF_FFFF", "32GiB", "CH2");
    assertLine("[96GiB, 1TiB)", "928GiB", "free: room for 29 more hosts");
  }

  @Test
  void shouldPrintCh1sViewWithCh2At96GiBAnd1TiBPlus96GiBWhenTwoChs() {
    assertLine("(b) CH1 (ch1) physical memory space (CH address = MH address + 32GiB)");
    assertLine("[0, 32GiB)", "0x0..0x7_FFFF_FFFF", "32GiB",
        "local subspace: CH1 (ch1)'s own memory and MMIO");
    assertLine("[32GiB, 1TiB + 32GiB)  0x8_0000_0000..0x107_FFFF_FFFF"
        + "  MH's PMS1 through CH1 (ch1)'s primary NTB");
    assertLine("[1TiB + 32GiB, 2TiB + 32GiB)  0x108_0000_0000..0x207_FFFF_FFFF"
        + "  MH's PMS2 through CH1 (ch1)'s secondary NTB");
    // the worked examples of 4.2
    assertLine("[96GiB, 128GiB)", "0x18_0000_0000..0x1F_FFFF_FFFF", "32GiB",
        "CH2 (ch2), 2 NTB hops: CH1's primary NTB, then CH2's");
    assertLine("[1TiB + 96GiB, 1TiB + 128GiB)", "0x118_0000_0000..0x11F_FFFF_FFFF", "32GiB",
        "CH2 (ch2), 2 NTB hops: CH1's secondary NTB, then CH2's");
    // and CH2's view of CH1, before and after fail-over
    assertLine("[64GiB, 96GiB)", "CH1 (ch1), 2 NTB hops: CH2's primary NTB, then CH1's");
    assertLine("[1TiB + 64GiB, 1TiB + 96GiB)",
        "CH1 (ch1), 2 NTB hops: CH2's secondary NTB, then CH1's");
    assertLine("[32GiB, 64GiB)", "MH local subspace (1 NTB hop)");
  }

  @Test
  void shouldPrintTheNtbBarsAndTheVisibleTotalWhenTwoChs() {
    assertLine("CH2 (ch2) secondary", "link-bar", "0x110_0000_0000..0x117_FFFF_FFFF", "32GiB",
        "-> 0x0");
    assertLine("virtual-bar", "0x108_0000_0000..0x207_FFFF_FFFF", "1TiB", "-> 0x100_0000_0000");
    assertLine("A CH can reach 96GiB: 32GiB local (no NTB), 32GiB in the MH (1 NTB hop),"
        + " 32GiB in 1 other compute host (2 NTB hops)");
  }

  @Test
  void shouldPrintOnlyOneViewWhenManyHostsOrOneIsChosen() {
    String many = MemoryMapText.render(GlobalMemoryLayout.paper(10));
    assertTrue(many.contains("(b) CH1 physical memory space"), many);
    assertFalse(many.contains("(b) CH2 physical memory space"), many);
    assertTrue(many.contains("--host I prints CH I's"), many);
    assertTrue(many.contains("[320GiB, 352GiB)  0x50_0000_0000..0x57_FFFF_FFFF  32GiB   CH10"),
        many);

    String third = MemoryMapText.render(GlobalMemoryLayout.paper(10), List.of(), 3);
    assertTrue(third.contains("(b) CH3 physical memory space"), third);
    assertFalse(third.contains("(b) CH1 physical memory space"), third);
    assertTrue(third.contains("CH3 itself: nothing answers (it would re-enter the NTB port it"
        + " left by)"), third);
  }

  @Test
  void shouldRejectTheHostWhenOutOfRangeOrNamesDoNotMatch() {
    IllegalArgumentException host = assertThrows(IllegalArgumentException.class,
        () -> MemoryMapText.render(GlobalMemoryLayout.paper(2), List.of(), 3));
    assertEquals("host=3 not in [1,2]", host.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> MemoryMapText.render(GlobalMemoryLayout.paper(2), List.of("ch1"), 0));
  }

  @Test
  void shouldWriteSizesPositionsAndHexAsThePaperAndTheFilesDo() {
    assertEquals("1600GiB", MemorySizes.size(1600L << 30));
    assertEquals("1TiB + 96GiB", MemorySizes.position((1L << 40) + (96L << 30)));
    assertEquals("0", MemorySizes.position(0));
    assertEquals("0x118_0000_0000", MemorySizes.hex((1L << 40) + (96L << 30)));
    assertEquals("0xFFFF_FFFF_FFFF_FFFF", MemorySizes.hex(-1L));
    assertEquals("16EiB", MemorySizes.space(64));
  }

  /** Some line of the output holds every part, in this order. */
  private void assertLine(String... parts) {
    StringBuilder regex = new StringBuilder(".*");
    for (String part : parts) {
      regex.append(Pattern.quote(part)).append(".*");
    }
    Pattern p = Pattern.compile(regex.toString());
    assertTrue(text.lines().anyMatch(l -> p.matcher(l).matches()),
        String.join(" ... ", parts) + " not in\n" + text);
  }
}

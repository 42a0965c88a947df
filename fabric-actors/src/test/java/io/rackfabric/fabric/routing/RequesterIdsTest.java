package io.rackfabric.fabric.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.ntb.NtbDirection;
import io.rackfabric.fabric.ntb.NtbTranslation;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.tlp.Bdf;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequesterIdsTest {

  private static final NtbConfig FRESH = new NtbConfig(Bdf.of(2, 0, 0), List.of(), List.of());

  @Test
  void shouldGiveHostIEntryIWhenProgrammedInHostOrder() {
    List<Integer> hosts = new ArrayList<>();
    for (int i = 0; i < 48; i++) {
      hosts.add(Bdf.of(4, i % 32, i / 32));
    }
    NtbConfig programmed = RequesterIds.programAll(FRESH, NtbDirection.TO_VIRTUAL, hosts);
    for (int i = 0; i < 48; i++) {
      assertEquals((2 << 8) | i,
          RequesterIds.proxyId(programmed, 1, 3, NtbDirection.TO_VIRTUAL, hosts.get(i)), "host " + i);
    }
    assertSame(programmed, RequesterIds.program(programmed, NtbDirection.TO_VIRTUAL, hosts.get(5)),
        "programming again changes nothing");
    assertEquals(-1, RequesterIds.proxyId(programmed, 1, 3, NtbDirection.TO_LINK, hosts.get(0)),
        "each direction has its own table");
  }

  @Test
  void shouldAgreeWithTheTranslationWhenItProgramsTheSameRequesters() {
    NtbTranslation live = new NtbTranslation(FRESH, 1, 3);
    NtbConfig planned = FRESH;
    for (int i = 0; i < 6; i++) {
      int requester = Bdf.of(0, i, 0);
      int proxy = live.program(NtbDirection.TO_LINK, requester);
      planned = RequesterIds.program(planned, NtbDirection.TO_LINK, requester);
      assertEquals(proxy, RequesterIds.proxyId(planned, 1, 3, NtbDirection.TO_LINK, requester));
      assertEquals(Bdf.of(1, 3, i), proxy, "internal bus 1, device 3: the 8 functions");
    }
  }

  @Test
  void shouldComposeTwoCrossingsWhenHostReachesHostThroughTheSwitch() {
    // B's NTB is port 1, C's port 2 of a switch with internal bus 4; C's virtual side is 02:00.0.
    int hostB = Bdf.of(0, 0, 0);
    NtbConfig ntbB = RequesterIds.program(FRESH, NtbDirection.TO_LINK, hostB);
    int bInSwitch = RequesterIds.proxyId(ntbB, 4, 1, NtbDirection.TO_LINK, hostB);
    NtbConfig ntbC = RequesterIds.programAll(FRESH, NtbDirection.TO_VIRTUAL, List.of(Bdf.of(0, 0, 0), bInSwitch));
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(3, 4, 4, null, null), null),
        new PortConfig("b", 1, PortRole.NTB, 1, null, ntbB),
        new PortConfig("c", 2, PortRole.NTB, 1, null, ntbC)), List.of());

    int atC = RequesterIds.proxyId(table, 2, NtbDirection.TO_VIRTUAL,
        RequesterIds.proxyId(table, 1, NtbDirection.TO_LINK, hostB));

    assertEquals(Bdf.of(4, 1, 0), bInSwitch);
    assertEquals((2 << 8) | 1, atC, "entry 1 of C's table: the MH holds entry 0");
    // The NTBs built from those configurations hand out the same IDs.
    NtbTranslation b = new NtbTranslation(ntbB, 4, 1);
    NtbTranslation c = new NtbTranslation(ntbC, 4, 2);
    assertEquals(atC, c.proxyId(NtbDirection.TO_VIRTUAL, b.proxyId(NtbDirection.TO_LINK, hostB)));
  }

  @Test
  void shouldRejectWhenPortIsMissingOrNotNtbOrTableIsFull() {
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(3, 4, 4, null, null), null)),
        List.of());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RequesterIds.proxyId(table, 0, NtbDirection.TO_LINK, 0));
    assertEquals("port up (number=0) is UPSTREAM, not an NTB port", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> RequesterIds.proxyId(table, 5, NtbDirection.TO_LINK, 0));
    NtbConfig full = FRESH;
    for (int i = 0; i < 8; i++) {
      full = RequesterIds.program(full, NtbDirection.TO_LINK, i);
    }
    NtbConfig last = full;
    e = assertThrows(IllegalArgumentException.class,
        () -> RequesterIds.program(last, NtbDirection.TO_LINK, 99));
    assertTrue(e.getMessage().contains("all 8 entries"), e.getMessage());
  }
}

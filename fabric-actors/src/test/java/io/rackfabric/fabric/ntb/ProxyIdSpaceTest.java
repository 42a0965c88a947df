package io.rackfabric.fabric.ntb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.tlp.Bdf;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProxyIdSpaceTest {

  @Test
  void shouldNumberAriProxiesByBusAloneWhenVirtualSideIsDeviceZero() {
    ProxyIdSpace s = ProxyIdSpace.virtualSide(new NtbConfig(Bdf.of(2, 0, 0), List.of(), List.of()));
    assertTrue(s.isAri());
    assertEquals(256, s.capacity());
    Set<Integer> ids = new HashSet<>();
    for (int i = 0; i < 256; i++) {
      int id = s.id(i);
      assertEquals(2, Bdf.bus(id));
      assertEquals(i, s.indexOf(id));
      ids.add(id);
    }
    assertEquals(256, ids.size());
    assertEquals(Bdf.of(2, 0, 0), s.id(0), "the first proxies are the endpoint's own functions");
    assertEquals(Bdf.of(2, 0, 7), s.id(7));
    assertEquals(-1, s.indexOf(Bdf.of(3, 0, 0)));
  }

  @Test
  void shouldKeepDeviceAndEightFunctionsWhenEndpointSharesItsBus() {
    ProxyIdSpace v = ProxyIdSpace.virtualSide(new NtbConfig(Bdf.of(0, 2, 0), List.of(), List.of()));
    assertEquals(8, v.capacity());
    assertEquals(Bdf.of(0, 2, 5), v.id(5));
    assertEquals(-1, v.indexOf(Bdf.of(0, 3, 5)));
    ProxyIdSpace link = ProxyIdSpace.linkSide(new NtbConfig(Bdf.of(1, 0, 0), List.of(), List.of()), 4, 9);
    assertEquals(new ProxyIdSpace(4, 9), link);
    assertEquals(Bdf.of(4, 9, 3), link.id(3));
    assertEquals(3, link.indexOf(Bdf.of(4, 9, 3)));
    assertThrows(IllegalArgumentException.class, () -> link.id(8));
    assertEquals(new ProxyIdSpace(0, 9),
        ProxyIdSpace.linkSide(new NtbConfig(Bdf.of(1, 0, 0), List.of(), List.of()), -1, 9),
        "no internal bus yet: bus 0");
  }

  @Test
  void shouldUseLinkSideBusWithAriWhenNtbHasOne() {
    NtbConfig c = new NtbConfig(Bdf.of(1, 0, 0), 7, List.of(), List.of(), List.of());
    ProxyIdSpace link = ProxyIdSpace.of(c, NtbDirection.TO_LINK, 4, 9);
    assertEquals(ProxyIdSpace.ari(7), link);
    assertEquals((7 << 8) | 200, link.id(200));
    assertEquals(200, link.indexOf((7 << 8) | 200));
    assertEquals(-1, link.indexOf(Bdf.of(4, 9, 0)));
  }
}

package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.ntb.NtbConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NtbWindowCapabilityTest {

  private static final NtbBar CH1 = new NtbBar(AddressRange.ofSize(32L << 30, 32L << 30), 0);
  private static final NtbBar PAGE = new NtbBar(AddressRange.ofSize(96L << 30, 4096), 0x1_0000);
  private static final NtbBar VIEW = new NtbBar(AddressRange.ofSize(32L << 30, 1L << 40), 0);
  private static final NtbBar STALE = new NtbBar(AddressRange.ofSize(0x18_0001_0000L, 4096), 0x2_0000);
  private static final Route TO_CHIP = new Route(List.of(3));

  /** A chip of three ports: 0 upstream, 1 and 2 NTB ports, port 1 starting with {@code link}. */
  private static ManagementAgent chip(List<NtbBar> link) {
    List<PortDescription> ports = List.of(
        new PortDescription(0, PortKind.UPSTREAM, 1, TestDevices.GEN1_X1, DataLinkState.DL_ACTIVE, DataLinkState.DL_ACTIVE),
        new PortDescription(1, PortKind.NTB, 1, TestDevices.GEN1_X1, DataLinkState.DL_ACTIVE, DataLinkState.DL_ACTIVE),
        new PortDescription(2, PortKind.NTB, 1, null, DataLinkState.DL_INACTIVE, DataLinkState.DL_INACTIVE));
    DeviceDescription d = new DeviceDescription("nt", DeviceType.SWITCH, 7, 256, ports, -1);
    return ManagementAgent.of(d, Map.of(1, new NtbConfig(0, link, List.of(VIEW)), 2, new NtbConfig(0, List.of(), List.of())));
  }

  private static int[] read(ManagementAgent a, long offset, int dwords) {
    ReadResult r = a.manager().space().read(NtbWindowCapability.APERTURE, offset, dwords, -1);
    assertTrue(r.ok(), r.toString());
    return r.data();
  }

  @Test
  void shouldReadTheWindowsTheFileProgrammedWhenNothingWasWritten() {
    ManagementAgent a = chip(List.of(CH1, STALE));
    int[] header = read(a, NtbWindowCapability.BLOCK, 3);
    assertEquals((1 << 16) | NtbWindowCapability.ID, header[0]);
    assertEquals(2 | 1 << 8, header[1], "2 link-side windows, 1 virtual-side");
    assertEquals(1 | NtbWindowCapability.SLOTS_PER_SIDE << 8, header[2]);
    int[] slot0 = read(a, NtbWindowCapability.BLOCK + NtbWindowCapability.FIRST_SLOT, 6);
    assertEquals(32L << 30, (slot0[0] & 0xFFFFFFFFL) | ((long) slot0[1] << 32));
    assertEquals(32L << 30, (slot0[2] & 0xFFFFFFFFL) | ((long) slot0[3] << 32));
    assertEquals(0, slot0[4] | slot0[5]);
  }

  @Test
  void shouldPutTheWrittenWindowsInForceAtTheHeaderWhenTheFabricManagerProgramsAPort() {
    ManagementAgent a = chip(List.of(CH1, STALE));
    List<Pi4Write> writes = NtbWindowCapability.programming(TO_CHIP, 0, 1, List.of(CH1, PAGE), List.of(VIEW));
    assertEquals(4, writes.size(), "a write per window, then the header");
    for (Pi4Write w : writes.subList(0, 3)) {
      assertTrue(a.applyWrite(w, 100));
      assertEquals(List.of(), a.takeWindowOrders(), "nothing in force before the header");
    }
    assertTrue(a.applyWrite(writes.get(3), 100));
    assertEquals(List.of(new ManagementAgent.WindowOrder(1, List.of(CH1, PAGE), List.of(VIEW))), a.takeWindowOrders());
    assertEquals(List.of(), a.takeWindowOrders(), "taken once");
  }

  @Test
  void shouldRefuseAHeaderWhoseWindowsOverlapAndChangeNothing() {
    ManagementAgent a = chip(List.of(CH1));
    NtbBar inside = new NtbBar(AddressRange.ofSize(40L << 30, 4096), 0);
    List<Pi4Write> writes = NtbWindowCapability.programming(TO_CHIP, 0, 1, List.of(CH1, inside), List.of(VIEW));
    for (Pi4Write w : writes) {
      a.applyWrite(w, 100);
    }
    assertEquals(List.of(), a.takeWindowOrders());
    assertEquals(1, a.manager().space().malformedWrites(), "the header");
    assertEquals(1 | 1 << 8, read(a, NtbWindowCapability.BLOCK + NtbWindowCapability.HEADER, 1)[0], "as before");
  }

  @Test
  void shouldIgnoreAWindowOfNoSizeAReadOnlyRegisterAndAPortWithoutTheCapability() {
    ManagementAgent a = chip(List.of(CH1));
    ConfigurationSpace space = a.manager().space();
    long slot = NtbWindowCapability.BLOCK + NtbWindowCapability.FIRST_SLOT;
    assertEquals(WriteOutcome.MALFORMED, space.write(NtbWindowCapability.APERTURE, slot, new int[] {0, 8, 0, 0, 0, 0}));
    assertEquals(WriteOutcome.MALFORMED, space.write(NtbWindowCapability.APERTURE, slot, new int[] {0, 8, 1, 0}),
        "a slot is written whole");
    assertEquals(WriteOutcome.READ_ONLY, space.write(NtbWindowCapability.APERTURE, NtbWindowCapability.BLOCK + 8,
        new int[] {5}));
    assertEquals(WriteOutcome.NO_SUCH_FIELD, space.write(NtbWindowCapability.APERTURE, 0, new int[] {1}),
        "port 0 is no NTB port");
    assertEquals(List.of(), a.takeWindowOrders());
  }

  @Test
  void shouldRefuseNamingThePortWhenWindowsAreLoadedOntoAPortThatIsNoNtbPort() {
    ConfigurationSpace space = chip(List.of()).manager().space();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> space.loadNtbWindows(0, List.of(), List.of()));
    assertTrue(e.getMessage().contains("port=0 is UPSTREAM"), e.getMessage());
  }
}

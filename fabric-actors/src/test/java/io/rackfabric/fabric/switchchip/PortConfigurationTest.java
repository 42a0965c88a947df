package io.rackfabric.fabric.switchchip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.config.ConfigSpace;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.ntb.NtbDirection;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.ConfigRead;
import io.rackfabric.fabric.tlp.ConfigWrite;
import io.rackfabric.fabric.tlp.Tlp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A switch port's configuration, without actors: the chip is a list of what was told to it. */
class PortConfigurationTest {

  private static final int ROOT = Bdf.of(0, 0, 0);
  /** Upstream port 0, downstream ports 1 (bus 2) and 2 (bus 3), NTB port 4. */
  static final RoutingTable TABLE = new RoutingTable(List.of(
      new PortConfig("up", 0, PortRole.UPSTREAM, 1,
          new BridgeRegisters(0, 1, 9, new AddressRange(0x1000_0000L, 0x1FFF_FFFFL), null), null),
      new PortConfig("a", 1, PortRole.DOWNSTREAM, 1,
          new BridgeRegisters(1, 2, 2, AddressRange.ofSize(0x1000_0000L, 0x100_0000L), null), null),
      new PortConfig("b", 2, PortRole.DOWNSTREAM, 1,
          new BridgeRegisters(1, 3, 3, AddressRange.ofSize(0x1100_0000L, 0x100_0000L), null), null),
      new PortConfig("ntb", 4, PortRole.NTB, 1, null,
          new NtbConfig(Bdf.of(1, 0, 0),
              List.of(new NtbBar(new AddressRange(0x1300_0000L, 0x130F_FFFFL), 0x4_0000L)),
              List.of(new NtbBar(new AddressRange(0x8000_0000L, 0x80FF_FFFFL), 0x1100_0000L))))),
      List.of());

  private final List<SwitchChip.Command> chip = new ArrayList<>();

  private PortConfiguration port(int number) {
    return new PortConfiguration("sw", number, TABLE, chip::add, LoggerFactory.getLogger(getClass()));
  }

  @Test
  void shouldPrefixTheSwitchIdWhenNamingPorts() {
    PortConfiguration a = port(1);
    assertEquals("sw.a", a.name());
    assertEquals("sw.ntb", a.siblingName(4));
  }

  @Test
  void shouldCompleteAsItsBridgeWhenUpstreamOrDownstream() {
    assertEquals(Bdf.of(0, 0, 0), port(0).bdf(), "upstream: the primary bus");
    assertEquals(Bdf.of(1, 1, 0), port(1).bdf(), "downstream: device = port number on the internal bus");
  }

  @Test
  void shouldCompleteFromThePortsBdfWhenARegisterIsRead() {
    PortConfiguration a = port(1);
    Completion c = a.complete(new ConfigRead(ROOT, 7, Bdf.of(1, 1, 0), 0, ConfigSpace.REG_BUSES, 0), 300, false);

    assertEquals(CompletionStatus.SUCCESSFUL, c.status());
    assertEquals(Bdf.of(1, 1, 0), c.completer());
    assertEquals(7, c.tag());
    assertEquals(300, c.originAt());
    assertEquals(4, c.payloadBytes());
  }

  @Test
  void shouldHoldTheCompletionWhenAWriteIsNotInTheTableYet() {
    PortConfiguration a = port(1);
    int buses = 1 | (5 << 8) | (5 << 16);
    a.complete(new ConfigWrite(ROOT, 1, Bdf.of(1, 1, 0), 0, ConfigSpace.REG_BUSES, buses, 0), 300, false);
    PortConfig changed = assertInstanceOf(SwitchChip.PortConfigured.class, chip.get(0)).config();
    assertEquals(5, changed.bridge().secondaryBus());
    List<String> sent = new ArrayList<>();

    a.whenPublished(() -> sent.add("completion"));
    a.tableChanged(TABLE);
    assertTrue(sent.isEmpty(), "a table without the write");
    a.tableChanged(TABLE.withPort(changed));

    assertEquals(List.of("completion"), sent);
  }

  @Test
  void shouldConvertToType0WhenAType1RequestTargetsTheSecondaryBus() {
    PortConfiguration a = port(1);
    Tlp own = new ConfigRead(ROOT, 1, Bdf.of(2, 0, 0), 1, 0, 0);
    Tlp beyond = new ConfigRead(ROOT, 2, Bdf.of(3, 0, 0), 1, 0, 0);

    assertEquals(0, ((ConfigRead) a.toType0IfOwnBus(own)).type());
    assertSame(beyond, a.toType0IfOwnBus(beyond));
  }

  @Test
  void shouldRefuseToProgramARequesterIdWhenThePortIsNotAnNtb() {
    SwitchPort.RequesterIdReply reply = port(1).program(NtbDirection.TO_LINK, 0x0100);

    var rejected = assertInstanceOf(SwitchPort.RequesterIdRejected.class, reply);
    assertEquals("port sw.a is DOWNSTREAM, not an NTB port", rejected.reason());
    assertTrue(chip.isEmpty());
  }

  @Test
  void shouldRefuseWhenTheRequesterIsNotASixteenBitId() {
    var rejected = assertInstanceOf(SwitchPort.RequesterIdRejected.class,
        port(4).program(NtbDirection.TO_LINK, 0x1_0000));
    assertTrue(rejected.reason().contains("requester=0x10000"), rejected.reason());
  }

  @Test
  void shouldTellTheChipOfANewEntryAndKeepItWhenProgrammedAgain() {
    PortConfiguration ntb = port(4);
    var first = assertInstanceOf(SwitchPort.RequesterIdProgrammed.class, ntb.program(NtbDirection.TO_LINK, 0x0100));
    var again = assertInstanceOf(SwitchPort.RequesterIdProgrammed.class, ntb.program(NtbDirection.TO_LINK, 0x0100));

    assertEquals(first.proxyId(), again.proxyId());
    assertEquals(first.index(), assertInstanceOf(SwitchChip.NtbReprogrammed.class, chip.get(0)).entry().index());
    assertEquals(4, ((SwitchChip.NtbReprogrammed) chip.get(0)).number());
  }
}

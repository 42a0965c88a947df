package io.rackfabric.host.enumeration;

import static io.rackfabric.host.enumeration.FakeDomain.memory;
import static io.rackfabric.host.enumeration.FakeDomain.ntbSide;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.config.ConfigSpace;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.tlp.Bdf;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The enumerator over fake configuration spaces, in dynamic mode. */
class EnumeratorTest {

  static final long KIB = 1L << 10;
  static final long MIB = 1L << 20;
  static final long GIB = 1L << 30;
  static final Apertures APERTURES =
      new Apertures(new AddressRange(0x8000_0000L, 0xFFFF_FFFFL), new AddressRange(32 * GIB, (1L << 48) - 1));
  static final DynamicAllocation DYNAMIC = new DynamicAllocation(APERTURES);

  /** Ladon Fig. 1's shape: sw1 (left: ep1; right: sw2 (down: ep2; NTB port 2)). */
  static FakeDomain fig1() {
    FakeDomain.Switch sw2 = new FakeDomain.Switch().port(1, memory(64 * KIB, 64 * KIB)).ntb(2, ntbSide(64 * KIB));
    return new FakeDomain(new FakeDomain.Switch().port(1, memory(64 * KIB)).port(2, sw2));
  }

  @Test
  void shouldNumberBusesDepthFirstAndSizeEveryBarWhenDomainIsFig1() {
    FakeDomain d = fig1();
    EnumerationResult r = d.run(Enumerator.enumerate("rc", DYNAMIC));
    assertEquals(List.of(), r.problems());
    // Bus numbers as Ladon Fig. 1 (and fig1.conf) have them.
    assertEquals(buses(0, 1, 5), bridgeAt(r, "00.0"));
    assertEquals(buses(1, 2, 2), bridgeAt(r, "00.0/01.0"));
    assertEquals(buses(1, 3, 5), bridgeAt(r, "00.0/02.0"));
    assertEquals(buses(3, 4, 5), bridgeAt(r, "00.0/02.0/00.0"));
    assertEquals(buses(4, 5, 5), bridgeAt(r, "00.0/02.0/00.0/01.0"));
    FunctionNode ep2 = r.at("00.0/02.0/00.0/01.0/00.0").orElseThrow();
    assertEquals(Bdf.of(5, 0, 0), ep2.bdf());
    assertEquals(List.of(64 * KIB, 64 * KIB), ep2.bars().stream().map(Bar::size).toList());
    FunctionNode ntb = r.at("00.0/02.0/00.0/02.0").orElseThrow();
    assertEquals(FunctionKind.NTB_ENDPOINT, ntb.kind());
    assertEquals(Bdf.of(4, 2, 0), ntb.bdf());
    assertTrue(ntb.bars().get(0).prefetchable() && ntb.bars().get(0).is64());
    assertEquals(8, r.all().size(), "sw1: up, left, ep1, right; sw2: up, down, ep2, ntb");
    assertEquals(r.configRequests() * 100L, r.modelNs(), "model time is the sum of the answers' round trips");
  }

  @Test
  void shouldProgramWindowsThatHoldEveryBarAndLeaveTheFakeAsTheResultSays() {
    FakeDomain d = fig1();
    EnumerationResult r = d.run(Enumerator.enumerate("rc", DYNAMIC));
    FakeDomain.Switch sw1 = (FakeDomain.Switch) d.top;
    FakeDomain.Switch sw2 = (FakeDomain.Switch) sw1.down.get(2).below;
    FakeDomain.Endpoint ep1 = (FakeDomain.Endpoint) sw1.down.get(1).below;
    FakeDomain.Endpoint ep2 = (FakeDomain.Endpoint) sw2.down.get(1).below;
    // Packed from the memory aperture, BAR order, each window starting on a 1 MiB granule.
    assertEquals(List.of(AddressRange.ofSize(0x8000_0000L, 64 * KIB)), ep1.windows());
    assertEquals(List.of(AddressRange.ofSize(0x8010_0000L, 64 * KIB), AddressRange.ofSize(0x8011_0000L, 64 * KIB)),
        ep2.windows());
    assertEquals(List.of(AddressRange.ofSize(32 * GIB, 64 * KIB)), sw2.down.get(2).ntb.windows(),
        "the NTB's prefetchable BAR goes to the prefetchable aperture");
    assertEquals(new AddressRange(0x8000_0000L, 0x800F_FFFFL), sw1.down.get(1).bridge().memory());
    assertEquals(new AddressRange(0x8010_0000L, 0x801F_FFFFL), sw1.down.get(2).bridge().memory());
    assertEquals(new AddressRange(32 * GIB, 32 * GIB + MIB - 1), sw1.down.get(2).bridge().prefetchable());
    assertEquals(new AddressRange(0x8000_0000L, 0x801F_FFFFL), sw1.up.bridge().memory());
    assertNull(sw1.down.get(1).bridge().prefetchable());
    // The result is what the fake holds.
    for (FunctionNode f : r.all()) {
      for (FunctionNode c : f.children()) {
        for (Bar b : c.bars()) {
          AddressRange w = b.prefetchable() ? f.bridge().prefetchable() : f.bridge().memory();
          assertTrue(w != null && w.covers(b.range()), c.id() + " BAR" + b.index() + " inside " + f.id() + "'s window");
        }
      }
    }
    assertEquals(sw2.up.bridge(), bridgeAt(r, "00.0/02.0/00.0"));
  }

  @Test
  void shouldPlaceBarsInBarOrderNaturallyAlignedWhenADeviceHasSeveral() {
    FakeDomain d = new FakeDomain(new FakeDomain.Switch().port(2, memory(512 * KIB, 16 * KIB, MIB)));
    EnumerationResult r = d.run(Enumerator.enumerate("mmh",
        new DynamicAllocation(new Apertures(new AddressRange(0xE000_0000L, 0xFFFF_FFFFL), null))));
    assertEquals(List.of(), r.problems());
    FakeDomain.Endpoint nic = (FakeDomain.Endpoint) ((FakeDomain.Switch) d.top).down.get(2).below;
    assertEquals(List.of(AddressRange.ofSize(0xE000_0000L, 512 * KIB), AddressRange.ofSize(0xE008_0000L, 16 * KIB),
        AddressRange.ofSize(0xE010_0000L, MIB)), nic.windows());
    assertEquals(new AddressRange(0xE000_0000L, 0xE01F_FFFFL), bridgeAt(r, "00.0/02.0").memory());
  }

  @Test
  void shouldSeeOnlyDeviceZeroOnALinkAndNothingOfAnEmptyPort() {
    FakeDomain d = new FakeDomain(new FakeDomain.Switch().port(1, null).port(3, memory(MIB)));
    EnumerationResult r = d.run(Enumerator.enumerate("rc", DYNAMIC));
    assertEquals(List.of(), r.problems());
    assertEquals(4, r.all().size(), "upstream, two downstream ports, one endpoint");
    assertEquals(buses(1, 2, 2), bridgeAt(r, "00.0/01.0"), "an empty port still gets its bus");
    assertNull(bridgeAt(r, "00.0/01.0").memory(), "and no window");
    assertEquals(buses(1, 3, 3), bridgeAt(r, "00.0/03.0"));
    assertTrue(d.log.stream().filter(op -> Bdf.bus(op.target()) == 0).allMatch(op -> Bdf.device(op.target()) == 0),
        "bus 0 is the root's link: only device 0 is asked");
  }

  @Test
  void shouldTreatARequestWithoutCompletionAsAnAbsentFunction() {
    FakeDomain d = new FakeDomain(new FakeDomain.Switch().port(1, memory(MIB)).port(2, memory(MIB)));
    d.silent = op -> Bdf.bus(op.target()) == 1 && Bdf.device(op.target()) == 2;
    EnumerationResult r = d.run(Enumerator.enumerate("rc", DYNAMIC));
    assertTrue(r.at("00.0/02.0").isEmpty());
    assertEquals(buses(0, 1, 2), bridgeAt(r, "00.0"));
  }

  @Test
  void shouldReportRegisterThatDoesNotReadBackWhatWasWritten() {
    FakeDomain d = new FakeDomain(new FakeDomain.Switch().port(1, memory(MIB)));
    ((FakeDomain.Switch) d.top).down.get(1).regs.ignoredRegister = ConfigSpace.REG_MEMORY;
    EnumerationResult r = d.run(Enumerator.enumerate("rc", DYNAMIC));
    assertEquals(1, r.problems().size(), r.problems().toString());
    assertTrue(r.problems().get(0).startsWith("01:01.0: register 8 was written to read 0x80008000 but reads 0xfff0"),
        r.problems().get(0));
    assertFalse(r.ok());
    assertTrue(r.render().contains("Problems\n  01:01.0: register 8"), r.render());
  }

  @Test
  void shouldReportBarThatDoesNotFitTheAperture() {
    FakeDomain d = new FakeDomain(new FakeDomain.Switch().port(1, memory(4 * GIB)));
    EnumerationResult r = d.run(Enumerator.enumerate("rc", DYNAMIC));
    assertEquals(1, r.problems().size(), r.problems().toString());
    assertTrue(r.problems().get(0).contains("BAR0 of 4GiB does not fit in the memory aperture"), r.problems().get(0));
    assertFalse(r.at("00.0/01.0/00.0").orElseThrow().bars().get(0).assigned());
  }

  @Test
  void shouldRenumberLaterBusesWhenASwitchIsAddedInDynamicMode() {
    FakeDomain d = new FakeDomain(new FakeDomain.Switch().port(1, memory(MIB)).port(2, null).port(3, memory(MIB)));
    EnumerationResult before = d.run(Enumerator.enumerate("rc", DYNAMIC));
    assertEquals(buses(1, 4, 4), bridgeAt(before, "00.0/03.0"));
    ((FakeDomain.Switch) d.top).down.get(2).below = new FakeDomain.Switch().port(1, memory(MIB)).port(2, memory(MIB));
    EnumerationResult after = d.run(Enumerator.enumerate("rc", DYNAMIC));
    assertEquals(List.of(), after.problems());
    assertEquals(buses(1, 3, 6), bridgeAt(after, "00.0/02.0"));
    assertEquals(buses(1, 7, 7), bridgeAt(after, "00.0/03.0"), "the port after it moved: dynamic renumbers others");
    assertEquals(Bdf.of(7, 0, 0), after.at("00.0/03.0/00.0").orElseThrow().bdf());
  }

  @Test
  void shouldFollowTheStepProtocol() {
    FakeDomain d = new FakeDomain(memory(MIB));
    Enumerator e = Enumerator.enumerate("rc", DYNAMIC);
    assertThrows(IllegalStateException.class, e::result);
    assertThrows(IllegalStateException.class, () -> e.accept(ConfigAnswer.ok(0)));
    ConfigOp first = e.next();
    assertEquals(new ConfigOp(Bdf.of(0, 0, 0), 0, ConfigSpace.REG_ID, null), first);
    assertEquals(first, e.next(), "asking again repeats the outstanding request");
    EnumerationResult r = d.run(e);
    assertTrue(e.finished());
    assertNull(e.next());
    assertEquals(FunctionKind.ENDPOINT, r.functions().get(0).kind(), "an endpoint straight on the root");
    assertEquals(List.of(AddressRange.ofSize(0x8000_0000L, MIB)), ((FakeDomain.Endpoint) d.top).windows());
  }

  static BridgeRegisters bridgeAt(EnumerationResult r, String location) {
    return r.at(location).orElseThrow(() -> new AssertionError("nothing at " + location + " in\n" + r.render())).bridge();
  }

  /** Compares bus numbers only. */
  static BusesOnly buses(int pri, int sec, int sub) {
    return new BusesOnly(pri, sec, sub);
  }

  record BusesOnly(int pri, int sec, int sub) {
    @Override
    public boolean equals(Object o) {
      if (o instanceof BridgeRegisters b) {
        return b.primaryBus() == pri && b.secondaryBus() == sec && b.subordinateBus() == sub;
      }
      return o instanceof BusesOnly other && other.pri == pri && other.sec == sec && other.sub == sub;
    }

    @Override
    public int hashCode() {
      return pri * 65536 + sec * 256 + sub;
    }
  }
}

package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.host.nic.RegisterMap.Access;
import io.rackfabric.host.nic.RegisterMap.Register;
import java.util.List;
import org.junit.jupiter.api.Test;

class RegisterMapTest {

  static final NicSettings SETTINGS = NicSettings.create(ConfigFactory.load());
  /** The ladon-testbed NIC's BARs. */
  static final List<AddressRange> BARS = List.of(
      AddressRange.ofSize(0xE000_0000L, 512 * 1024),
      AddressRange.ofSize(0xE008_0000L, 16 * 1024),
      AddressRange.ofSize(0xE010_0000L, 1024 * 1024));
  static final RegisterMap MAP = RegisterMap.of(BARS, SETTINGS);

  @Test
  void shouldPlaceEachVfBarSixteenKibibytesApartWhenBuiltFromTheTopologyBars() {
    assertEquals(0xE010_0000L, MAP.vfBar(0));
    assertEquals(0xE010_4000L, MAP.vfBar(1));
    assertEquals(0xE000_1020L + RegisterMap.VF_CTRL, MAP.vfControl(2, RegisterMap.VF_CTRL));
    assertEquals(AddressRange.ofSize(0xE010_0000L, SETTINGS.vfCount() * 16 * 1024L), MAP.vfRegion());
  }

  @Test
  void shouldDecodeAssignmentAsOwnersThenEnableWhenPfDriverWritesIt() {
    RequesterMatch pri = RequesterMatch.throughNtb(Bdf.of(4, 1, 0));
    RequesterMatch sec = RequesterMatch.throughNtb(Bdf.of(6, 1, 0));
    RegisterMap.Poke poke = MAP.assignVf(3, pri, sec);

    assertEquals(0xE000_1030L, poke.address());
    assertEquals(List.of(
            new Access(Register.VF_OWNER0, 3, pri.encode()),
            new Access(Register.VF_OWNER1, 3, sec.encode()),
            new Access(Register.VF_CTRL, 3, RegisterMap.VF_CTRL_ENABLE)),
        MAP.decode(poke.address(), poke.data()));
  }

  @Test
  void shouldDecodeRingSetupAndDoorbellWhenWrittenToAVfBar() {
    long bar = MAP.vfBar(1);
    assertEquals(List.of(
            new Access(Register.TDBAL, 1, 0x1000),
            new Access(Register.TDBAH, 1, 0x8),
            new Access(Register.TDLEN, 1, 64),
            new Access(Register.TDWBAL, 1, 0x1400),
            new Access(Register.TDWBAH, 1, 0x8)),
        MAP.decode(bar + RegisterMap.TDBAL, RegisterMap.ringSetup(0x8_0000_1000L, 64, 0x8_0000_1400L)));
    assertEquals(List.of(new Access(Register.TDT, 1, 5)), MAP.decode(bar + RegisterMap.TDT, RegisterMap.tail(5)));
    assertEquals(List.of(new Access(Register.VF_OTHER, 1, 7)),
        MAP.decode(bar + 0x100, RegisterMap.dwords(7)));
    assertEquals(List.of(new Access(Register.PF_OTHER, -1, 7)),
        MAP.decode(0xE000_0000L, RegisterMap.dwords(7)));
  }

  @Test
  void shouldRejectWritesThatAreNotWholeDwordsInOneBar() {
    assertEquals("write of 2 bytes at 0xE0100018 is not whole aligned dwords",
        assertThrows(IllegalArgumentException.class, () -> MAP.decode(0xE010_0018L, new byte[2])).getMessage());
    assertThrows(IllegalArgumentException.class, () -> MAP.decode(0xE010_0019L, new byte[4]));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> MAP.decode(MAP.vfBar(1) - 4, new byte[8])).getMessage().contains("crosses from VF 0's BAR"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> MAP.decode(0xE008_0000L, new byte[4])).getMessage().contains("in neither the PF BAR"));
  }

  @Test
  void shouldLayOutDescriptorAsAddressLengthAndEop() {
    byte[] d = RegisterMap.descriptor(0x8_0000_2000L, 106, 16);
    assertArrayEquals(new byte[] {0, 0x20, 0, 0, 8, 0, 0, 0, 106, 0, 1, 0, 0, 0, 0, 0}, d);
    assertEquals(32, RegisterMap.descriptor(1, 1, 32).length);
  }

  @Test
  void shouldRejectLayoutsThatDoNotFitNamingTheValues() {
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> RegisterMap.of(BARS.subList(0, 2), SETTINGS)).getMessage().startsWith("a NIC needs 3 BARs"));
    List<AddressRange> small = List.of(BARS.get(0), BARS.get(1), AddressRange.ofSize(0xE010_0000L, 64 * 1024));
    assertEquals("VF BAR region [0xE0100000..0xE010FFFF] holds 65536 bytes, vf-count=8 x vf-bar-size=16384"
            + " needs 131072",
        assertThrows(IllegalArgumentException.class, () -> RegisterMap.of(small, SETTINGS)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> MAP.vfBar(SETTINGS.vfCount()));
  }

  @Test
  void shouldMatchAnyFunctionOfTheNtbDeviceWhenAssignedThroughAnNtb() {
    RequesterMatch m = RequesterMatch.throughNtb(Bdf.of(4, 1, 0));
    assertTrue(m.matches(Bdf.of(4, 1, 0)));
    assertTrue(m.matches(Bdf.of(4, 1, 7)));
    assertFalse(m.matches(Bdf.of(4, 2, 0)));
    assertFalse(m.matches(Bdf.of(0, 0, 0)));
    assertEquals(m, RequesterMatch.decode(m.encode()));
    assertEquals("04:01.*", m.toString());
    assertFalse(RequesterMatch.NONE.matches(0));
    assertTrue(RequesterMatch.exact(Bdf.of(0, 0, 0)).matches(0));
    assertFalse(RequesterMatch.exact(Bdf.of(0, 0, 0)).matches(Bdf.of(0, 0, 1)));
  }

  @Test
  void shouldTellTheVfAndItsDoorbellWhenAWriteReachesAVfRingAndNoVfWhenItIsThePfsOrMalformed() {
    assertEquals(new RegisterMap.Touched(1, true), MAP.touched(MAP.vfBar(1) + RegisterMap.TDT, RegisterMap.tail(5)));
    assertEquals(new RegisterMap.Touched(2, false),
        MAP.touched(MAP.vfBar(2) + RegisterMap.TDBAL, RegisterMap.ringSetup(0x8_0000_1000L, 64, 0x8_0000_1400L)));
    assertEquals(new RegisterMap.Touched(0, true),
        MAP.touched(MAP.vfBar(0) + RegisterMap.TDBAL, RegisterMap.ringRestore(0x8_0000_1000L, 64, 0, 3, 7)));
    RegisterMap.Poke pf = MAP.assignVf(3, RequesterMatch.NONE, RequesterMatch.NONE);
    assertEquals(new RegisterMap.Touched(-1, false), MAP.touched(pf.address(), pf.data()));
    assertEquals(new RegisterMap.Touched(-1, false), MAP.touched(MAP.vfBar(0) + RegisterMap.TDT, new byte[2]));
  }
}

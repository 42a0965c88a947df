package io.rackfabric.host.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MsixTableTest {

  @Test
  void shouldLayEntriesOutSixteenBytesApartWhenProgrammedDwordByDword() {
    MsixTable t = new MsixTable(4);
    assertTrue(t.write(2 * 16 + MsixTable.ADDRESS_LOW, 0x0002_0040L));
    assertTrue(t.write(2 * 16 + MsixTable.ADDRESS_HIGH, 0x18L));
    assertTrue(t.write(2 * 16 + MsixTable.DATA, 0x42L));
    assertTrue(t.write(2 * 16 + MsixTable.VECTOR_CONTROL, 0));
    assertEquals(0x18_0002_0040L, t.address(2));
    assertEquals(0x0002_0040L, t.read(0x20));
    assertEquals(0x18L, t.read(0x24));
    assertEquals(0x42L, t.read(0x28));
    assertEquals(0L, t.read(0x2C));
    assertEquals(64, t.size());
    assertEquals(new MsixTable.Send(2, 0x18_0002_0040L, 0x42), t.message(2));
  }

  @Test
  void shouldStartEveryEntryMaskedWhenCreated() {
    MsixTable t = new MsixTable(3);
    for (int v = 0; v < 3; v++) {
      assertTrue(t.masked(v));
      assertEquals(MsixTable.MASK, t.read(v * 16 + MsixTable.VECTOR_CONTROL));
    }
  }

  @Test
  void shouldWithholdAndMarkPendingWhenTheVectorIsMasked() {
    MsixTable t = new MsixTable(2);
    assertTrue(t.program(1, 0x1000, 7, true));
    MsixTable.Outcome o = t.message(1);
    assertEquals(MsixTable.Reason.MASKED, ((MsixTable.Withheld) o).reason());
    assertTrue(t.pending(1));
    assertEquals(1, t.maskedRaises());
    t.write(16 + MsixTable.VECTOR_CONTROL, 0);
    assertEquals(new MsixTable.Send(1, 0x1000, 7), t.message(1));
    assertFalse(t.pending(1));
  }

  @Test
  void shouldCountNotSendWhenTheVectorIsOutsideTheTable() {
    MsixTable t = new MsixTable(2);
    MsixTable.Withheld w = (MsixTable.Withheld) t.message(2);
    assertEquals(MsixTable.Reason.NO_SUCH_VECTOR, w.reason());
    assertTrue(w.detail().contains("vector=2"));
    assertEquals(MsixTable.Reason.NO_SUCH_VECTOR, ((MsixTable.Withheld) t.message(-1)).reason());
    assertEquals(2, t.noSuchVectorRaises());
  }

  @Test
  void shouldWithholdWhenUnmaskedButNotProgrammed() {
    MsixTable t = new MsixTable(1);
    t.write(MsixTable.VECTOR_CONTROL, 0);
    assertEquals(MsixTable.Reason.NOT_PROGRAMMED, ((MsixTable.Withheld) t.message(0)).reason());
    assertEquals(1, t.notProgrammedRaises());
  }

  @Test
  void shouldRefuseWritesOutsideUnalignedOrWithAnUnalignedAddress() {
    MsixTable t = new MsixTable(2);
    assertFalse(t.write(32, 1));
    assertFalse(t.write(2, 1));
    assertFalse(t.write(-4, 1));
    assertFalse(t.write(MsixTable.ADDRESS_LOW, 0x1002));
    assertFalse(t.program(5, 0x1000, 0, false));
    assertEquals(5, t.refusedWrites());
    assertEquals(0, t.address(0));
    assertEquals(0xFFFF_FFFFL, t.read(32));
  }

  @Test
  void shouldRejectTableSizesPcieDoesNotAllow() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MsixTable(0));
    assertTrue(e.getMessage().contains("entries=0"));
    assertThrows(IllegalArgumentException.class, () -> new MsixTable(2049));
  }

  @Test
  void shouldNameTheVectorWhenAnEntryOutsideTheTableIsAskedFor() {
    MsixTable t = new MsixTable(2);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> t.masked(2));
    assertTrue(e.getMessage().contains("vector=2"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> t.pending(-1));
    assertThrows(IllegalArgumentException.class, () -> t.address(5));
    assertThrows(IllegalArgumentException.class, () -> t.data(2));
    assertTrue(t.masked(1), "inside the table: masked at reset");
  }
}

package io.rackfabric.fabric.tlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TlpsTest {

  private static final int REQ = Bdf.of(0, 0, 0);

  private static MemWrite write(long address, int length) {
    return new MemWrite(REQ, 1, 0, address, length, null, 0, 0);
  }

  private static MemRead read(long address, int length) {
    return new MemRead(REQ, 1, 0, address, length, 0, 0);
  }

  private static Completion completion(int length) {
    return new Completion(
        Bdf.of(3, 0, 0), REQ, 1, 0, CompletionStatus.SUCCESSFUL, length, 0, length, null, 0, 0);
  }

  @Test
  void shouldUse3DwHeaderWhenAddressFitsIn32Bits() {
    assertEquals(12, write(0x0L, 4).headerBytes());
    assertEquals(12, write(0xFFFF_FFFFL, 4).headerBytes());
    assertEquals(12, read(0xB0040L, 64).headerBytes());
  }

  @Test
  void shouldUse4DwHeaderWhenAddressNeedsMoreThan32Bits() {
    assertEquals(16, write(0x1_0000_0000L, 4).headerBytes());
    assertEquals(16, read(32L << 30, 64).headerBytes());
    assertEquals(16, write(Long.MIN_VALUE, 4).headerBytes()); // 2^63, negative as a long
    assertEquals(16, read(-1L, 4).headerBytes());
  }

  @Test
  void shouldChangeHeaderSizeWhenAddressIsTranslatedAcross4GiB() {
    MemWrite low = write(0x40L, 64);
    assertEquals(16, low.withAddress(0x8_0000_0040L).headerBytes());
    assertEquals(12, low.withAddress(0x8_0000_0040L).withAddress(0x40L).headerBytes());
  }

  @Test
  void shouldCountHeaderPayloadAndLinkOverheadWhenComputingWireBytes() {
    assertEquals(12 + 64 + 8, Tlps.wireBytes(write(0x90040L, 64)));
    assertEquals(16 + 64 + 8, Tlps.wireBytes(write(0x1_0000_0000L, 64)));
    assertEquals(12 + 0 + 8, Tlps.wireBytes(read(0x90040L, 4096))); // a read carries no data
    assertEquals(16 + 0 + 8, Tlps.wireBytes(read(0x1_0000_0000L, 4096)));
    assertEquals(12 + 100 + 8, Tlps.wireBytes(completion(100)));
    assertEquals(12 + 0 + 8, Tlps.wireBytes(completion(0)));
    assertEquals(12 + 4 + 8, Tlps.wireBytes(new ConfigWrite(REQ, 1, Bdf.of(1, 0, 0), 0, 4, 7, 0)));
    assertEquals(12 + 0 + 8, Tlps.wireBytes(new ConfigRead(REQ, 1, Bdf.of(1, 0, 0), 0, 4, 0)));
    assertEquals(16 + 0 + 8, Tlps.wireBytes(new ErrorMessage(REQ, ErrorMessage.Severity.FATAL,
        ErrorMessage.Cause.SURPRISE_DOWN, 0)));
  }

  @Test
  void shouldRoundDataCreditsUpTo16ByteUnitsWhenPayloadIsPartial() {
    assertEquals(1, Tlps.dataCredits(write(0, 1)));
    assertEquals(1, Tlps.dataCredits(write(0, 16)));
    assertEquals(2, Tlps.dataCredits(write(0, 17)));
    assertEquals(4, Tlps.dataCredits(write(0, 64)));
    assertEquals(256, Tlps.dataCredits(write(0, 4096)));
    assertEquals(0, Tlps.dataCredits(completion(0)));
    assertEquals(7, Tlps.dataCredits(completion(100)));
  }

  @Test
  void shouldNeedNoDataCreditsWhenTlpCarriesNoPayload() {
    assertEquals(0, Tlps.dataCredits(read(0, 4096)));
    assertEquals(0, Tlps.dataCredits(new ConfigRead(REQ, 1, 0, 0, 0, 0)));
    assertEquals(1, Tlps.dataCredits(new ConfigWrite(REQ, 1, 0, 0, 0, 0, 0)));
    assertEquals(0, Tlps.dataCredits(new ErrorMessage(REQ, ErrorMessage.Severity.CORRECTABLE,
        ErrorMessage.Cause.BAD_TLP, 0)));
  }

  @Test
  void shouldUseTheRightFlowControlClassWhenClassifyingEachTlp() {
    assertEquals(TlpClass.POSTED, write(0, 4).tlpClass());
    assertEquals(TlpClass.POSTED, new ErrorMessage(REQ, ErrorMessage.Severity.FATAL,
        ErrorMessage.Cause.DLLP_TIMEOUT, 0).tlpClass());
    assertEquals(TlpClass.NON_POSTED, read(0, 4).tlpClass());
    assertEquals(TlpClass.NON_POSTED, new ConfigRead(REQ, 1, 0, 1, 0, 0).tlpClass());
    assertEquals(TlpClass.NON_POSTED, new ConfigWrite(REQ, 1, 0, 1, 0, 0, 0).tlpClass());
    assertEquals(TlpClass.COMPLETION, completion(4).tlpClass());
  }

  @Test
  void shouldRejectMemoryLengthWhenOutsideOneTo4096() {
    IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> write(0, 0));
    assertTrue(zero.getMessage().contains("length=0"), zero.getMessage());
    IllegalArgumentException big =
        assertThrows(IllegalArgumentException.class, () -> read(0, 4097));
    assertTrue(big.getMessage().contains("length=4097"), big.getMessage());
    assertThrows(IllegalArgumentException.class, () -> write(0, -1));
    assertThrows(IllegalArgumentException.class, () -> read(0, 0));
    assertEquals(4096, write(0, 4096).length());
    assertEquals(1, read(0, 1).length());
  }

  @Test
  void shouldRejectWriteWhenDataLengthDiffersFromLength() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class,
            () -> new MemWrite(REQ, 1, 0, 0x40, 8, new byte[4], 0, 0));
    assertTrue(e.getMessage().contains("data.length=4"), e.getMessage());
    assertTrue(e.getMessage().contains("length=8"), e.getMessage());
    assertEquals(8, new MemWrite(REQ, 1, 0, 0x40, 8, new byte[8], 0, 0).payloadBytes());
  }

  @Test
  void shouldRejectCompletionWhenOversizeOrDataMismatchedButAllowEmpty() {
    assertEquals(0, completion(0).length());
    assertThrows(IllegalArgumentException.class, () -> completion(4097));
    assertThrows(IllegalArgumentException.class, () -> completion(-1));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new Completion(1, 2, 3, 0, CompletionStatus.SUCCESSFUL, 4, 0, 4, new byte[3], 0, 0));
    assertTrue(e.getMessage().contains("data.length=3"), e.getMessage());
  }

  @Test
  void shouldRejectConfigRequestWhenTypeOrRegisterIsInvalid() {
    IllegalArgumentException type =
        assertThrows(IllegalArgumentException.class, () -> new ConfigRead(REQ, 1, 0, 2, 0, 0));
    assertTrue(type.getMessage().contains("type=2"), type.getMessage());
    IllegalArgumentException reg =
        assertThrows(
            IllegalArgumentException.class, () -> new ConfigWrite(REQ, 1, 0, 0, 1024, 0, 0));
    assertTrue(reg.getMessage().contains("register=1024"), reg.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new ConfigRead(REQ, 1, 0, 0, -1, 0));
    assertEquals(1023, new ConfigRead(REQ, 1, 0, 1, 1023, 0).register());
  }

  @Test
  void shouldKeepEverythingButTypeWhenConvertedToType0() {
    ConfigRead r = new ConfigRead(REQ, 9, Bdf.of(4, 0, 0), 1, 17, 123);
    ConfigRead r0 = r.asType0();
    assertEquals(0, r0.type());
    assertEquals(new ConfigRead(REQ, 9, Bdf.of(4, 0, 0), 0, 17, 123), r0);
    ConfigWrite w0 = new ConfigWrite(REQ, 9, Bdf.of(4, 0, 0), 1, 17, 0xABCD, 5).asType0();
    assertEquals(new ConfigWrite(REQ, 9, Bdf.of(4, 0, 0), 0, 17, 0xABCD, 5), w0);
  }

  @Test
  void shouldReplaceOnlyRequesterWhenRequesterIsRewritten() {
    MemRead r = new MemRead(REQ, 7, 3, 0x90040, 64, 11, 12);
    MemRead p = r.withRequester(Bdf.of(9, 1, 2));
    assertEquals(new MemRead(Bdf.of(9, 1, 2), 7, 3, 0x90040, 64, 11, 12), p);
    byte[] data = {1, 2, 3, 4};
    MemWrite w =
        new MemWrite(REQ, 7, 3, 0x90040, 4, data, 11, 12).withRequester(5).withAddress(0x40);
    assertEquals(5, w.requester());
    assertEquals(0x40, w.address());
    assertSame(data, w.data());
    assertEquals(12, w.seq());
  }

  @Test
  void shouldEndRequestWhenCompletionIsLastChunkOrAnError() {
    CompletionStatus ok = CompletionStatus.SUCCESSFUL;
    Completion first = new Completion(1, REQ, 1, 0, ok, 128, 0, 64, null, 0, 0);
    Completion last = new Completion(1, REQ, 1, 0, ok, 64, 64, 64, null, 0, 0);
    assertFalse(first.isLast());
    assertTrue(last.isLast());
    MemRead req = new MemRead(Bdf.of(2, 3, 1), 42, 5, 0x90000, 64, 100, 77);
    Completion ur =
        Completion.error(Bdf.of(3, 0, 0), req, CompletionStatus.UNSUPPORTED_REQUEST, 200);
    assertTrue(ur.isLast());
    assertEquals(Bdf.of(2, 3, 1), ur.requester());
    assertEquals(42, ur.tag());
    assertEquals(5, ur.tc());
    assertEquals(0, ur.length());
    assertEquals(77, ur.seq());
    assertEquals(200, ur.originAt());
  }

  @Test
  void shouldUseTc0WhenRequestIsConfiguration() {
    assertEquals(0, new ConfigRead(REQ, 1, 0, 0, 0, 0).tc());
    assertEquals(0, new ConfigWrite(REQ, 1, 0, 0, 0, 0, 0).tc());
  }

  @Test
  void shouldReturnSameCompletionFieldsWhenRequesterIsRestored() {
    byte[] data = new byte[16];
    Completion c = new Completion(7, 8, 9, 2, CompletionStatus.SUCCESSFUL, 16, 0, 16, data, 10, 11);
    Completion back = c.withRequester(0x0325);
    assertEquals(0x0325, back.requester());
    assertEquals(7, back.completer());
    assertEquals(9, back.tag());
    assertSame(data, back.data());
    assertEquals(11, back.seq());
    assertNull(completion(0).data());
  }
}

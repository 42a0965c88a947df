package io.rackfabric.host.device.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class GpuRegistersTest {

  static final long BASE = 0x1000_0000L;

  static byte[] le(int... dwords) {
    ByteBuffer b = ByteBuffer.allocate(4 * dwords.length).order(ByteOrder.LITTLE_ENDIAN);
    for (int d : dwords) {
      b.putInt(d);
    }
    return b.array();
  }

  static byte[] qword(long value) {
    return GpuRegisters.qword(value);
  }

  @Test
  void shouldHandTheProgrammedCopyToTheDoorbellWhenRegistersAreWrittenAsQwordsAndDwords() {
    GpuRegisters r = new GpuRegisters(BASE);
    assertNull(r.written(BASE + GpuRegisters.SRC, qword(0x1_2345_6780L)).doorbell());
    r.written(BASE + GpuRegisters.DST, le(0x9000));
    r.written(BASE + GpuRegisters.DST + 4, le(0x2));
    r.written(BASE + GpuRegisters.LENGTH, le(4096));
    GpuRegisters.Written w = r.written(BASE + GpuRegisters.DOORBELL, le(1));

    assertEquals(new GpuRegisters.Doorbell(0x1_2345_6780L, 0x2_0000_9000L, 4096), w.doorbell());
    assertFalse(w.refused());
    assertEquals(0, r.refused());
  }

  @Test
  void shouldRingTheDoorbellAfterTheOtherRegistersWhenOneWriteProgramsThemAll() {
    GpuRegisters r = new GpuRegisters(BASE);
    // SRC, DST, LENGTH, DOORBELL in one 24-byte write: the doorbell sees the values before it.
    byte[] all = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN)
        .putLong(0x100).putLong(0x200).putInt(64).putInt(1).array();
    assertEquals(new GpuRegisters.Doorbell(0x100, 0x200, 64), r.written(BASE, all).doorbell());
  }

  @Test
  void shouldKeepTheMsiTheDriverProgrammed() {
    GpuRegisters r = new GpuRegisters(BASE);
    r.written(BASE + GpuRegisters.MSI_ADDR, qword(0xFEE0_0000L));
    r.written(BASE + GpuRegisters.MSI_DATA, le(0x4041));
    assertEquals(0xFEE0_0000L, r.msiAddress());
    assertEquals(0x4041, r.msiData());
    assertArrayEquals(new byte[] {0x41, 0x40, 0, 0}, GpuRegisters.dword(0x4041));
  }

  @Test
  void shouldRefuseAndCountWhenAWriteIsUnaligned() {
    GpuRegisters r = new GpuRegisters(BASE);
    assertTrue(r.written(BASE + 2, le(7)).refused());
    assertTrue(r.written(BASE + GpuRegisters.LENGTH, new byte[] {1, 2}).refused());
    assertEquals(2, r.refused());
    assertEquals(GpuRegisters.State.ERROR, r.state());
    assertEquals(GpuRegisters.Error.UNALIGNED, r.error());
    assertEquals(3 | GpuRegisters.Error.UNALIGNED.ordinal() << 8, r.status());
  }

  @Test
  void shouldRefuseWritesToReadOnlyRegistersAndBeyondTheBlock() {
    GpuRegisters r = new GpuRegisters(BASE);
    assertTrue(r.written(BASE + GpuRegisters.STATUS, le(0)).refused());
    assertEquals(GpuRegisters.Error.READ_ONLY, r.error());
    assertTrue(r.written(BASE + 0x800, le(0)).refused());
    assertEquals(GpuRegisters.Error.NO_SUCH_REGISTER, r.error());
    assertEquals(2, r.refused());
  }

  @Test
  void shouldStayBusyButShowTheRefusalWhenRefusedDuringACopy() {
    GpuRegisters r = new GpuRegisters(BASE);
    r.started();
    r.refuse(GpuRegisters.Error.BUSY);
    assertEquals(GpuRegisters.State.BUSY, r.state());
    assertEquals(GpuRegisters.Error.BUSY, r.error());
    r.finished(true, 64, GpuRegisters.Error.NONE);
    assertEquals(GpuRegisters.State.DONE, r.state());
    assertEquals(GpuRegisters.Error.BUSY, r.error(), "kept until the next accepted doorbell");
    r.started();
    assertEquals(GpuRegisters.Error.NONE, r.error());
  }

  @Test
  void shouldLayOutTheReadOnlyRegistersAsTheDriverReadsThem() {
    GpuRegisters r = new GpuRegisters(BASE);
    r.refuse(GpuRegisters.Error.BAD_LENGTH);
    r.started();
    r.finished(false, 512, GpuRegisters.Error.COMPLETION_ERROR);
    ByteBuffer image = ByteBuffer.wrap(r.readOnlyImage()).order(ByteOrder.LITTLE_ENDIAN);

    assertEquals(BASE + GpuRegisters.STATUS, r.readOnlyAddress());
    assertEquals(GpuRegisters.COPY_END - GpuRegisters.STATUS, image.capacity());
    assertEquals(3 | GpuRegisters.Error.COMPLETION_ERROR.ordinal() << 8, image.getInt(0));
    assertEquals(512, image.getInt(GpuRegisters.BYTES_DONE - GpuRegisters.STATUS));
    assertEquals(1, image.getInt(GpuRegisters.REFUSED - GpuRegisters.STATUS));
    assertEquals(1, image.getInt(GpuRegisters.FAILED - GpuRegisters.STATUS));
  }

  @Test
  void shouldHandThePingPongSetupToItsDoorbellWhenOneWriteProgramsItAll() {
    GpuRegisters r = new GpuRegisters(BASE);
    byte[] all = ByteBuffer.allocate(28).order(ByteOrder.LITTLE_ENDIAN)
        .putInt(2).putInt(1000).putLong(0xE_4000_0100L).putLong(0x8_0000_0200L).putInt(1).array();
    GpuRegisters.Written w = r.written(BASE + GpuRegisters.PP_MODE, all);

    assertNull(w.doorbell());
    assertEquals(new GpuRegisters.PingPongDoorbell(2, 1000, 0xE_4000_0100L, 0x8_0000_0200L), w.pingPong());
    assertEquals(new PingPongKernel.Setup(PingPongKernel.Role.PONG, 1000, 0xE_4000_0100L, 0x8_0000_0200L),
        w.pingPong().setup());
    assertFalse(w.refused());
  }

  @Test
  void shouldMakeNoSetupWhenThePingPongRegistersAreBad() {
    assertNull(new GpuRegisters.PingPongDoorbell(3, 10, 0x100, 0x200).setup(), "mode 3");
    assertNull(new GpuRegisters.PingPongDoorbell(1, 0, 0x100, 0x200).setup(), "no rounds");
    assertNull(new GpuRegisters.PingPongDoorbell(1, 10, 0x102, 0x200).setup(), "unaligned remote");
    assertNull(new GpuRegisters.PingPongDoorbell(1, 10, 0x100, 0).setup(), "no word to wait on");
  }

  @Test
  void shouldRefuseWritesToThePingPongsReadOnlyRegisters() {
    GpuRegisters r = new GpuRegisters(BASE);
    assertTrue(r.written(BASE + GpuRegisters.PP_ROUNDS, le(0)).refused());
    assertEquals(GpuRegisters.Error.READ_ONLY, r.error());
    assertTrue(r.written(BASE + GpuRegisters.BLOCK, le(0)).refused());
    assertEquals(GpuRegisters.Error.NO_SUCH_REGISTER, r.error());
  }

  @Test
  void shouldLayOutThePingPongsStatusAsTheDriverReadsIt() {
    PingPongKernel k = new PingPongKernel(io.rackfabric.fabric.address.AddressRange.ofSize(0x1000, 0x1000),
        new PingPongKernelTest.Recorder());
    k.start(new PingPongKernel.Setup(PingPongKernel.Role.PING, 1, 0x4000, 0x1100), 0);
    k.written(0x1100, GpuRegisters.dword(1), 640);
    ByteBuffer image = ByteBuffer.wrap(GpuRegisters.pingPongImage(k)).order(ByteOrder.LITTLE_ENDIAN);

    assertEquals(BASE + GpuRegisters.PP_STATUS, new GpuRegisters(BASE).pingPongAddress());
    assertEquals(PingPongKernel.State.DONE.ordinal(), image.getInt(0));
    assertEquals(1, image.getInt(GpuRegisters.PP_ROUNDS - GpuRegisters.PP_STATUS));
    assertEquals(640, image.getInt(GpuRegisters.PP_LAST_NS - GpuRegisters.PP_STATUS));
  }
}

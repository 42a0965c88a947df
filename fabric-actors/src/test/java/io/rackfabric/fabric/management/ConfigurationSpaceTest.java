package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.management.BaselineCapability.GeneralInfo;
import io.rackfabric.fabric.management.BaselineCapability.PortPointer;
import io.rackfabric.fabric.management.PortRecord.PortInfo;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConfigurationSpaceTest {

  private static final long SERIAL = 0x1234_5678_9ABC_DEF0L;

  private static ConfigurationSpace switch16() {
    return ConfigurationSpace.of(TestDevices.switchOf("sw12", SERIAL, 16, Set.of(1, 2, 7), DataLinkState.DL_PROTECTED));
  }

  @Test
  void shouldReportTypeSerialPortsAndIngressPortWhenGeneralInformationIsRead() {
    ReadResult r = switch16().read(0, 0x100, 6, 1);
    assertTrue(r.ok(), r::toString);
    GeneralInfo info = GeneralInfo.decode(r.data());
    assertEquals(DeviceType.SWITCH, info.type());
    assertEquals(SERIAL, info.serial());
    assertEquals(16, info.portCount());
    assertEquals(256, info.maxPayload());
    assertEquals(1, info.ingressPort(), "the port the read came in through");
    assertEquals(4, info.turnBits(), "16 ports take 4 turn bits");
    assertEquals(SpanningTreeCapability.OFFSET, GeneralInfo.nextCapability(r.data()));
    assertEquals(-1, GeneralInfo.decode(switch16().read(0, 0x100, 6, -1).data()).ingressPort());
  }

  @Test
  void shouldPointToEachPortRecordWhenPointerBlocksAreRead() {
    ConfigurationSpace space = switch16();
    int[] second = space.read(0, 0x138, 8, 0).data();
    for (int i = 0; i < 8; i++) {
      PortPointer p = PortPointer.decode(second[i]);
      assertEquals(0, p.aperture());
      assertEquals(BaselineCapability.portRecordOffset(8 + i), p.offset());
    }
    assertEquals(0x11000, PortPointer.decode(second[0]).offset(), "port 8's record where Fig. 9 has it");
    assertFalse(space.read(0, 0x158, 1, 0).ok(), "16 ports have two pointer blocks, not three");
  }

  @Test
  void shouldReadZeroPointersPastTheLastPortWhenTheLastBlockIsPartial() {
    ConfigurationSpace space = ConfigurationSpace.of(TestDevices.switchOf("sw", 1, 20, Set.of(), DataLinkState.DL_INACTIVE));
    int[] third = space.read(0, BaselineCapability.pointerBlockOffset(2), 8, 0).data();
    for (int i = 0; i < 8; i++) {
      assertEquals(i < 4, PortPointer.decode(third[i]) != null, "pointer " + (16 + i));
    }
  }

  @Test
  void shouldReportWidthSpeedAndStateWhenAPortRecordIsRead() {
    ConfigurationSpace space = switch16();
    PortInfo linked = PortInfo.decode(space.read(0, BaselineCapability.portRecordOffset(1), 6, 0).data());
    assertEquals(PortKind.DOWNSTREAM, linked.kind());
    assertEquals(TestDevices.GEN1_X1.lanes(), linked.width());
    assertEquals(TestDevices.GEN1_X1.generation(), linked.speed());
    assertEquals(DataLinkState.DL_PROTECTED, linked.state());
    assertEquals(DataLinkState.DL_PROTECTED, linked.peerState());
    PortInfo unused = PortInfo.decode(space.read(0, BaselineCapability.portRecordOffset(0), 6, 0).data());
    assertEquals(PortKind.UNUSED, unused.kind());
    assertEquals(DataLinkState.DL_INACTIVE, unused.state());
    assertEquals(0, unused.width());

    space.setPortState(1, DataLinkState.DL_INACTIVE, DataLinkState.DL_INACTIVE);
    assertEquals(DataLinkState.DL_INACTIVE,
        PortInfo.decode(space.read(0, BaselineCapability.portRecordOffset(1), 6, 0).data()).state());
  }

  @Test
  void shouldGiveAnErrorNamingTheValueWhenNothingIsThere() {
    ConfigurationSpace space = switch16();
    assertEquals("aperture=16 not in [0,15]", space.read(16, 0x100, 1, 0).error());
    assertTrue(space.read(1, 0x100, 1, 0).error().startsWith("aperture 1 offset=100h"), "an empty aperture");
    assertTrue(space.read(0, 0x0, 1, 0).error().contains("in no capability"));
    assertTrue(space.read(0, 0x114, 4, 0).ok(), "general information runs into the pointers");
    assertTrue(space.read(0, BaselineCapability.portRecordOffset(16), 6, 0).error().contains("in no capability"),
        "a 17th port of a 16-port switch");
    assertTrue(space.read(0, BaselineCapability.portRecordOffset(3) + 4, 6, 0).error().contains("in no capability"),
        "a read running past a record's end");
    assertEquals("offset=102h not on a 32-bit register", space.read(0, 0x102, 1, 0).error());
    assertEquals("dwords=9 not in [1,8]", space.read(0, 0x100, 9, 0).error());
    assertEquals("dwords=0 not in [1,8]", space.read(0, 0x100, 0, 0).error());
  }

  @Test
  void shouldIgnoreAndCountWhenAWriteTouchesAReadOnlyField() {
    ConfigurationSpace space = switch16();
    int[] before = space.read(0, 0x100, 6, 1).data();
    assertEquals(WriteOutcome.READ_ONLY, space.write(0, 0x108, new int[] {42}));
    assertEquals(WriteOutcome.READ_ONLY, space.write(0, BaselineCapability.portRecordOffset(1) + 4, new int[] {0}));
    assertEquals(WriteOutcome.READ_ONLY, space.write(0, BaselineCapability.portRecordOffset(1) + 8, new int[] {0x100}),
        "a bit of the control register that is not writable");
    assertEquals(2 + 1, space.readOnlyWrites());
    assertArrayEquals(before, space.read(0, 0x100, 6, 1).data());
    assertEquals(WriteOutcome.NO_SUCH_FIELD, space.write(3, 0x100, new int[] {1}));
    assertEquals(1, space.writesToNothing());
  }

  @Test
  void shouldRecordTheActivationWhenTheControlRegisterIsWritten() {
    ConfigurationSpace space = switch16();
    assertFalse(space.activationRequested(2));
    assertEquals(WriteOutcome.APPLIED, space.write(0, BaselineCapability.portRecordOffset(2) + 8, new int[] {1}));
    assertTrue(space.activationRequested(2));
    assertEquals(1, space.read(0, BaselineCapability.portRecordOffset(2) + 8, 1, 0).data()[0]);
    assertEquals(0, space.readOnlyWrites());
  }

  @Test
  void shouldHaveOnePortAndOnePointerBlockWhenTheDeviceIsAnEndpoint() {
    ConfigurationSpace space = ConfigurationSpace.of(TestDevices.endpoint("ep", 7, -1, DataLinkState.DL_ACTIVE));
    GeneralInfo info = GeneralInfo.decode(space.read(0, 0x100, 6, 0).data());
    assertEquals(DeviceType.ENDPOINT, info.type());
    assertEquals(1, info.portCount());
    assertEquals(0, info.turnBits());
    assertTrue(space.read(0, 0x118, 8, 0).ok());
    assertFalse(space.read(0, 0x138, 1, 0).ok());
    PortInfo port = PortInfo.decode(space.read(0, BaselineCapability.portRecordOffset(0), 6, 0).data());
    assertEquals(PortKind.ENDPOINT, port.kind());
    assertEquals(DataLinkState.DL_ACTIVE, port.state());
    assertTrue(space.activationRequested(0), "an active port starts with activation asked for");
    assertNull(PortPointer.decode(0));
  }
}

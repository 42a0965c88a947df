package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rackfabric.fabric.link.DataLinkState;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManagementPacketTest {

  private static final Route ROUTE = new Route(List.of(0, 3));

  @Test
  void shouldTakeTheRouteHeaderAndTheirOwnFieldsWhenSized() {
    Pi4ReadRequest request = new Pi4ReadRequest(ROUTE, 0, 7, 0, 0x118, 8);
    assertEquals(16, request.sizeBytes());
    Pi4ReadCompletion data = request.answer(ReadResult.ok(new int[8]));
    assertEquals(PacketKind.PI4_COMPLETION_WITH_DATA, data.kind());
    assertEquals(8 + 4 + 32, data.sizeBytes());
    Pi4ReadCompletion error = request.answer(ReadResult.failed("aperture=16 not in [0,15]"));
    assertEquals(PacketKind.PI4_COMPLETION_WITH_ERROR, error.kind());
    assertEquals(12, error.sizeBytes());
    assertEquals(8 + 8 + 12, new Pi4Write(ROUTE, 0, 0, 0x608, new int[3]).sizeBytes());
    assertEquals(20, new Pi5Event(ROUTE, 0, 42, 3, DataLinkState.DL_INACTIVE).sizeBytes());
  }

  @Test
  void shouldAnswerOnTheRequestsRouteClassAndTransactionWhenCompleted() {
    Pi4ReadCompletion c = new Pi4ReadRequest(ROUTE, 5, 300, 0, 0x100, 6).answer(ReadResult.ok(new int[6]));
    assertEquals(ROUTE, c.route());
    assertEquals(5, c.trafficClass());
    assertEquals(300, c.transaction());
  }

  @Test
  void shouldRefuseWithTheValueWhenAFieldIsOutOfRange() {
    assertEquals("dwords=9 not in [1,8]",
        assertThrows(IllegalArgumentException.class, () -> new Pi4ReadRequest(ROUTE, 0, 0, 0, 0x100, 9)).getMessage());
    assertEquals("aperture=16 not in [0,15]",
        assertThrows(IllegalArgumentException.class, () -> new Pi4ReadRequest(ROUTE, 0, 0, 16, 0x100, 1)).getMessage());
    assertEquals("transaction=65536 not in [0,65535]",
        assertThrows(IllegalArgumentException.class, () -> new Pi4ReadRequest(ROUTE, 0, 65536, 0, 0, 1)).getMessage());
    assertEquals("trafficClass=8 not in [0,7]",
        assertThrows(IllegalArgumentException.class, () -> new Pi5Event(ROUTE, 8, 1, 0, DataLinkState.DL_ACTIVE)).getMessage());
    assertEquals("data of 9 registers not in [1,8]",
        assertThrows(IllegalArgumentException.class, () -> new Pi4Write(ROUTE, 0, 0, 0, new int[9])).getMessage());
    assertEquals("turn=256 not in [0,255]",
        assertThrows(IllegalArgumentException.class, () -> ROUTE.then(256)).getMessage());
  }

  @Test
  void shouldCountPacketsAndBytesByKindWhenAdded() {
    PacketCounts counts = new PacketCounts();
    Pi4ReadRequest request = new Pi4ReadRequest(ROUTE, 0, 1, 0, 0x100, 6);
    counts.add(request);
    counts.add(request);
    counts.add(request.answer(ReadResult.ok(new int[6])));
    assertEquals(2, counts.count(PacketKind.PI4_READ_REQUEST));
    assertEquals(32, counts.bytes(PacketKind.PI4_READ_REQUEST));
    assertEquals(36, counts.bytes(PacketKind.PI4_COMPLETION_WITH_DATA));
    assertEquals(0, counts.count(PacketKind.PI5_EVENT));
    assertEquals(3, counts.totalCount());
    assertEquals(68, counts.totalBytes());
  }

  @Test
  void shouldApplyItsDataWhenAWriteReachesADevice() {
    ConfigurationSpace space = ConfigurationSpace.of(TestDevices.endpoint("ep", 1, -1, DataLinkState.DL_PROTECTED));
    Pi4Write activate = new Pi4Write(ROUTE, 0, 0, BaselineCapability.portRecordOffset(0) + 8, new int[] {1});
    assertEquals(WriteOutcome.APPLIED, activate.applyTo(space));
    assertEquals(true, space.activationRequested(0));
  }
}

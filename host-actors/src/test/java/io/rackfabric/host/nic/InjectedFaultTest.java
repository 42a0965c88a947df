package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InjectedFaultTest {

  static final McpPacket DATA = new McpPacket(McpPacket.Kind.DATA, "nic", 0, "remote", 0, 5, 42, 64, false, false);

  @Test
  void shouldTakeEffectOnlyAtItsPointAndOnlyOnceWhenArmed() {
    InjectedFault f = new InjectedFault();
    f.arm(FaultCategory.INTERFACE_HANG, FaultPoint.PACKET_SENT);
    assertNull(f.fire(FaultPoint.TOKEN_TAKEN, 10));
    assertTrue(f.pending());
    assertEquals(-1, f.activatedAt());
    assertEquals(FaultCategory.INTERFACE_HANG, f.fire(FaultPoint.PACKET_SENT, 20));
    assertFalse(f.pending());
    assertEquals(20, f.activatedAt());
    assertNull(f.fire(FaultPoint.PACKET_SENT, 30));
  }

  @Test
  void shouldSpoilOnlyTheNextDataPacketWhenTheFaultTravelsWithIt() {
    InjectedFault f = new InjectedFault();
    assertSame(DATA, f.onWire(DATA));
    f.arm(FaultCategory.MESSAGES_CORRUPTED, FaultPoint.SEND_DMA_DONE);
    f.fire(FaultPoint.SEND_DMA_DONE, 0);
    assertTrue(f.onWire(DATA).corrupted());
    assertSame(DATA, f.onWire(DATA));
    f.arm(FaultCategory.REMOTE_INTERFACE_HANG, FaultPoint.SEND_DMA_DONE);
    f.fire(FaultPoint.SEND_DMA_DONE, 0);
    McpPacket poisoned = f.onWire(DATA);
    assertTrue(poisoned.poison());
    assertFalse(poisoned.corrupted());
  }

  @Test
  void shouldDropAnUnexecutedFaultWhenDisarmed() {
    InjectedFault f = new InjectedFault();
    f.arm(FaultCategory.MESSAGES_CORRUPTED, FaultPoint.TOKEN_TAKEN);
    f.disarm();
    assertFalse(f.pending());
    assertNull(f.fire(FaultPoint.TOKEN_TAKEN, 0));
    f.arm(FaultCategory.MESSAGES_CORRUPTED, FaultPoint.TOKEN_TAKEN);
    f.fire(FaultPoint.TOKEN_TAKEN, 0);
    f.disarm();
    assertSame(DATA, f.onWire(DATA), "the packet fault waiting went with the reset");
  }

  @Test
  void shouldKeepTheActivationTimeWhenTheArmedFaultHungTheCard() {
    InjectedFault f = new InjectedFault();
    f.hung(7); // a poisoned packet: no armed fault took effect
    assertEquals(7, f.activatedAt());
    f.hung(9);
    assertEquals(9, f.activatedAt());
    f.arm(FaultCategory.INTERFACE_HANG, FaultPoint.ACK_RECEIVED);
    f.fire(FaultPoint.ACK_RECEIVED, 50);
    f.hung(60);
    assertEquals(50, f.activatedAt());
  }
}

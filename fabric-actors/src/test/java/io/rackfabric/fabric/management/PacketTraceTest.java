package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PacketTraceTest {

  private static final Route ROUTE = new Route(List.of(0));

  @Test
  void shouldPrintRegistersInHexWhenTheReadIsNoneTheTraceKnows() {
    PacketTrace trace = new PacketTrace();
    Pi4ReadRequest r = new Pi4ReadRequest(ROUTE, 0, 5, 0, 0x604, 1);
    assertEquals("-> [0]          txn 5     read aperture 0 offset 604h, 1 registers (16 bytes)", trace.line(r));
    assertEquals("<- [0]          txn 5     data 00000301 (16 bytes)", trace.line(r.answer(ReadResult.ok(new int[] {0x301}))));
  }

  @Test
  void shouldSayUndecodableWhenGeneralInformationIsNonsense() {
    PacketTrace trace = new PacketTrace();
    Pi4ReadRequest r = new Pi4ReadRequest(ROUTE, 0, 0, 0, 0x100, 6);
    trace.line(r);
    assertTrue(trace.line(r.answer(ReadResult.ok(new int[6]))).contains("undecodable: capability ID=0000h at 100h"));
  }

  @Test
  void shouldPrintTheErrorWhenTheCompletionHasOne() {
    PacketTrace trace = new PacketTrace();
    Pi4ReadRequest r = new Pi4ReadRequest(ROUTE, 0, 1, 9, 0x100, 1);
    trace.line(r);
    assertEquals("<- [0]          txn 1     error: aperture 9 offset=100h dwords=1 is in no capability (12 bytes)",
        trace.line(r.answer(ReadResult.failed("aperture 9 offset=100h dwords=1 is in no capability"))));
  }
}

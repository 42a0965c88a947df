package io.rackfabric.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlps;
import org.junit.jupiter.api.Test;

/** When a frame from the partner takes effect in model time (the rest of reception: {@link LinkEndTest}). */
class ReceptionTest {

  private static final LinkParameters P = LinkParameters.gen3x4();
  private static final FcCredits LIMITS = new FcCredits(8, 64, 8, 64, 8, 64);
  private static final MemWrite WRITE = new MemWrite(Bdf.of(1, 0, 0), 1, 0, 0x90000L, 256, null, 0, 1);

  @Test
  void shouldTakeEffectAtTheSendStampPlusTheFlightOfItsBytesWhenAFrameCarriesCreditDataOrAnAck() {
    long tlpFlight = P.flightNs(Tlps.wireBytes(WRITE));
    long dllpFlight = P.flightNs(Reception.DLLP_BYTES);
    assertEquals(100 + tlpFlight, Reception.arrival(P, new TlpFrame(WRITE, 100)));
    assertEquals(100 + tlpFlight, Reception.arrival(P, new SequencedTlp(WRITE, 3, 100)));
    assertEquals(100 + P.flightNs(40), Reception.arrival(P, new CorruptTlp(40, 100)));
    assertEquals(100 + dllpFlight, Reception.arrival(P, new AckNak(false, 3, 100)));
    assertEquals(100 + dllpFlight, Reception.arrival(P, new UpdateFc(LIMITS, 100)));
    assertEquals(P.serializationNs(Reception.DLLP_BYTES) + P.propagationNs(), dllpFlight);
  }

  @Test
  void shouldBeNoModelEventWhenAFrameIsLinkManagement() {
    assertEquals(-1, Reception.arrival(P, new UpdateFc(LIMITS, 100, true)), "a keepalive");
    assertEquals(-1, Reception.arrival(P, new InitFc(LIMITS, 1, 0, 100)));
    assertEquals(-1, Reception.arrival(P, new PhysicalDown(100)));
    assertEquals(-1, Reception.arrival(P, new PhysicalDown(100, true)), "a retraining's down too");
  }

  @Test
  void shouldTakeEffectAfterADllpFlightWhenAnInitFcIsARetrainingsUnderTheKernel() {
    long dllpFlight = P.flightNs(Reception.DLLP_BYTES);
    assertEquals(100 + dllpFlight, Reception.arrival(P, new InitFc(LIMITS, 1, 0, 100, true)));
  }
}

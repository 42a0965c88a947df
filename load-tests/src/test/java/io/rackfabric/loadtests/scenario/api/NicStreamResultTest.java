package io.rackfabric.loadtests.scenario.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rackfabric.host.nic.ReceiverReport.Arrival;
import io.rackfabric.host.nic.UdpSender;
import java.util.List;
import org.junit.jupiter.api.Test;

class NicStreamResultTest {

  static Arrival at(int vf, long seq, long model, long wall) {
    return new Arrival(vf, seq, 106, model - 10, model, wall);
  }

  @Test
  void shouldCountLossDuplicatesAndReorderingAndSpreadTheGapsOfItsOwnVfWhenArrivalsAreMixed() {
    // VF 0 due 0..5 (4 sent, 2 skipped): 0, 1, 1 again, 5, 4; VF 1's frames are not its own.
    // Model gaps 1000, 100, 6900, 100; wall gaps 200, 10, 190, 400 (the lower median of an even count).
    UdpSender.SendDone done = new UdpSender.SendDone("ch1-udp", 4, 4, 2, 0, 0, 0, "");
    List<Arrival> arrivals = List.of(at(0, 0, 1_000, 100), at(1, 0, 1_500, 150), at(0, 1, 2_000, 300),
        at(0, 1, 2_100, 310), at(0, 5, 9_000, 500), at(0, 4, 9_100, 900));
    NicStreamResult r = NicStreamResult.of("ch1", 0, done, arrivals);
    assertEquals(5, r.received());
    assertEquals(1, r.duplicates());
    assertEquals(1, r.outOfOrder());
    assertEquals(2, r.lost(), "2 and 3 never arrived");
    assertEquals(new NicStreamResult.Spread(100, 100, 6_900), r.modelGaps());
    assertEquals(new NicStreamResult.Spread(10, 190, 400), r.wallGaps());
  }

  @Test
  void shouldReportNoGapsWhenFewerThanTwoPacketsArrived() {
    NicStreamResult r = NicStreamResult.of("ch2", 1, new UdpSender.SendDone("ch2-udp", 1, 1, 0, 0, 0, 0, ""),
        List.of(at(1, 0, 5, 5)));
    assertEquals(0, r.lost());
    assertEquals(new NicStreamResult.Spread(-1, -1, -1), r.modelGaps());
  }
}

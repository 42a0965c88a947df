package io.rackfabric.host.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.failover.FailoverBreakdown.PerHost;
import io.rackfabric.host.failover.HostLog.Entry;
import io.rackfabric.host.failover.HostLog.Step;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Table 2 read off hand-made logs. The model times are irregular on purpose, so that a figure
 * taken between the wrong two steps cannot come out right by accident.
 */
class FailoverBreakdownTest {

  private static final long FAULT = 1_000;

  /** Three CHs, CH2's primary link fails, the MH notifies one by one. */
  private static HostLog mhUnicast() {
    return new HostLog("mmh", 0, List.of(
        new Entry(Step.REPORT_SEEN, 2, 11_950),
        new Entry(Step.VERDICT, 2, 12_010),
        new Entry(Step.RESPONSE_SENT, 2, 12_010),
        new Entry(Step.DMA_REDIRECTED, 2, 13_010),
        new Entry(Step.NOTIFICATION_SENT, 1, 12_010),
        new Entry(Step.ACK_SEEN, 1, 22_330),
        new Entry(Step.NOTIFICATION_SENT, 2, 22_330),
        new Entry(Step.ACK_SEEN, 2, 32_900),
        new Entry(Step.NOTIFICATION_SENT, 3, 32_900),
        new Entry(Step.ACK_SEEN, 3, 43_120),
        new Entry(Step.FAILOVER_COMPLETED, 2, 43_120)));
  }

  private static Map<Integer, HostLog> chsUnicast() {
    Map<Integer, HostLog> chs = new LinkedHashMap<>();
    chs.put(1, new HostLog("ch1", 1, List.of(
        new Entry(Step.NOTIFICATION_SEEN, 2, 20_510),
        new Entry(Step.ROUTE_UPDATED, 2, 21_510),
        new Entry(Step.ACK_SENT, 2, 21_510))));
    chs.put(2, new HostLog("ch2", 2, List.of(
        new Entry(Step.AER_RECEIVED, 2, 1_230),
        new Entry(Step.AER_HANDLED, 2, 3_400),
        new Entry(Step.REPORT_SENT, 2, 3_400),
        new Entry(Step.RESPONSE_SEEN, 2, 20_450),
        new Entry(Step.NOTIFICATION_SEEN, 2, 31_040),
        new Entry(Step.ROUTE_UPDATED, 2, 32_040),
        new Entry(Step.ACK_SENT, 2, 32_040))));
    chs.put(3, new HostLog("ch3", 3, List.of(
        // an entry about another host comes first and must not be taken
        new Entry(Step.NOTIFICATION_SEEN, 1, 500),
        new Entry(Step.ROUTE_UPDATED, 1, 700),
        new Entry(Step.NOTIFICATION_SEEN, 2, 41_200),
        new Entry(Step.ROUTE_UPDATED, 2, 42_230),
        new Entry(Step.ACK_SENT, 2, 42_230))));
    return chs;
  }

  @Test
  void shouldTakeEachFigureAsTheDifferenceOfItsTwoStepsWhenUnicast() {
    FailoverBreakdown b = FailoverBreakdown.of(2, NotificationMode.UNICAST, FAULT, mhUnicast(), chsUnicast());

    assertEquals(2, b.failedHost());
    assertEquals(3, b.computeHosts());
    assertEquals(NotificationMode.UNICAST, b.mode());
    assertEquals(FAULT, b.faultAt());
    assertEquals(3_400 - FAULT, b.detectionNs(), "fault to the AER driver");
    assertEquals(12_010 - 3_400, b.determinationNs(), "AER driver to the verdict");
    assertEquals(43_120 - 12_010, b.notificationNs(), "verdict to the last acknowledgement");
    assertEquals(43_120 - FAULT, b.totalNs());
    assertEquals(b.totalNs(), b.detectionNs() + b.determinationNs() + b.notificationNs());
    assertEquals(20_450 - 3_400, b.roundTripNs(), "AER driver to the MH's response seen");
    assertEquals(List.of(
            new PerHost(1, 12_010, 20_510 - 12_010, 21_510 - 20_510, 22_330 - 21_510),
            new PerHost(2, 22_330, 31_040 - 22_330, 32_040 - 31_040, 32_900 - 32_040),
            new PerHost(3, 32_900, 41_200 - 32_900, 42_230 - 41_200, 43_120 - 42_230)),
        b.hosts());
  }

  @Test
  void shouldCountEveryHostFromTheOneMulticastWriteWhenMulticast() {
    HostLog mh = new HostLog("mmh", 0, List.of(
        new Entry(Step.REPORT_SEEN, 1, 11_900),
        new Entry(Step.VERDICT, 1, 12_000),
        new Entry(Step.NOTIFICATION_SENT, Notifier.EVERY_HOST, 12_000),
        new Entry(Step.ACK_SEEN, 2, 21_900),
        new Entry(Step.ACK_SEEN, 1, 22_100),
        new Entry(Step.FAILOVER_COMPLETED, 1, 22_100)));
    Map<Integer, HostLog> chs = Map.of(
        1, new HostLog("ch1", 1, List.of(
            new Entry(Step.AER_HANDLED, 1, 3_000),
            new Entry(Step.RESPONSE_SEEN, 1, 20_000),
            new Entry(Step.NOTIFICATION_SEEN, 1, 20_300),
            new Entry(Step.ROUTE_UPDATED, 1, 21_300))),
        2, new HostLog("ch2", 2, List.of(
            new Entry(Step.NOTIFICATION_SEEN, 1, 20_100),
            new Entry(Step.ROUTE_UPDATED, 1, 21_050))));

    FailoverBreakdown b = FailoverBreakdown.of(1, NotificationMode.MULTICAST, 600, mh, chs);

    assertEquals(3_000 - 600, b.detectionNs());
    assertEquals(12_000 - 3_000, b.determinationNs());
    assertEquals(22_100 - 12_000, b.notificationNs());
    assertEquals(22_100 - 600, b.totalNs());
    assertEquals(20_000 - 3_000, b.roundTripNs());
    assertEquals(List.of(
            new PerHost(1, 12_000, 8_300, 1_000, 800),
            new PerHost(2, 12_000, 8_100, 950, 850)),
        b.hosts());
  }

  @Test
  void shouldNameTheStepWhenALogLacksIt() {
    record Gap(String log, Step step) {}
    List<Gap> gaps = List.of(
        new Gap("ch2", Step.AER_HANDLED),
        new Gap("ch2", Step.RESPONSE_SEEN),
        new Gap("mmh", Step.VERDICT),
        new Gap("mmh", Step.FAILOVER_COMPLETED),
        new Gap("mmh", Step.NOTIFICATION_SENT),
        new Gap("mmh", Step.ACK_SEEN),
        new Gap("ch1", Step.NOTIFICATION_SEEN),
        new Gap("ch3", Step.ROUTE_UPDATED));
    for (Gap gap : gaps) {
      HostLog mh = gap.log().equals("mmh") ? without(mhUnicast(), gap.step()) : mhUnicast();
      Map<Integer, HostLog> chs = new LinkedHashMap<>();
      chsUnicast().forEach((ch, log) -> chs.put(ch, log.host().equals(gap.log()) ? without(log, gap.step()) : log));

      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> FailoverBreakdown.of(2, NotificationMode.UNICAST, FAULT, mh, chs), gap.toString());

      assertTrue(e.getMessage().contains(" has no " + gap.step() + " entry"), gap + ": " + e.getMessage());
      if (gap.step() != Step.NOTIFICATION_SENT) {
        assertTrue(e.getMessage().startsWith(gap.log() + " "), gap + ": " + e.getMessage());
      }
    }
  }

  @Test
  void shouldWantTheMulticastWriteWhenTheModeIsMulticast() {
    // a unicast round's log read as a multicast one: there is no write to every host
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> FailoverBreakdown.of(2, NotificationMode.MULTICAST, FAULT, mhUnicast(), chsUnicast()));
    assertTrue(e.getMessage().contains("has no NOTIFICATION_SENT entry"), e.getMessage());
  }

  @Test
  void shouldNameTheHostWhenItsLogIsMissing() {
    Map<Integer, HostLog> noFailed = new LinkedHashMap<>(chsUnicast());
    noFailed.remove(2);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> FailoverBreakdown.of(2, NotificationMode.UNICAST, FAULT, mhUnicast(), noFailed));
    assertEquals("no log of CH2", e.getMessage());

    // CH3's log filed under 4: CH3 has none
    Map<Integer, HostLog> gap = new LinkedHashMap<>(chsUnicast());
    gap.put(4, gap.remove(3));
    e = assertThrows(IllegalStateException.class,
        () -> FailoverBreakdown.of(2, NotificationMode.UNICAST, FAULT, mhUnicast(), gap));
    assertEquals("no log of CH3", e.getMessage());
  }

  private static HostLog without(HostLog log, Step step) {
    List<Entry> kept = new ArrayList<>();
    for (Entry e : log.entries()) {
      if (e.step() != step) {
        kept.add(e);
      }
    }
    return new HostLog(log.host(), log.index(), kept);
  }
}

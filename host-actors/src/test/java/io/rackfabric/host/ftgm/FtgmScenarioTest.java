package io.rackfabric.host.ftgm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.host.nic.FaultCategory;
import io.rackfabric.host.nic.FaultPoint;
import io.rackfabric.host.nic.McpMode;
import io.rackfabric.host.nic.NicSettings;
import org.junit.jupiter.api.Test;

/** FTGM Figures 4 and 5: what GM's reload loses or duplicates, and FTGM does not. */
class FtgmScenarioTest {

  static final FtgmSettings SETTINGS = FtgmSettings.create(ConfigFactory.load()).withTraffic(1, 5, 100_000);
  static final NicSettings NIC = NicSettings.create(ConfigFactory.load());

  /** Figure 4: the sending card hangs with the ACK of a delivered message in transit. */
  static FaultOutcome duplicateCase(McpMode mode) {
    return FaultCampaign.inject(SETTINGS, NIC, mode, "nic", FaultCategory.INTERFACE_HANG, FaultPoint.ACK_RECEIVED,
        0, 0, 4, false);
  }

  /** Figure 5: the receiving card hangs after the message arrived, before its DMA to the host buffer. */
  static FaultOutcome lostCase(McpMode mode) {
    return FaultCampaign.inject(SETTINGS, NIC, mode, "nic", FaultCategory.INTERFACE_HANG,
        FaultPoint.RECEIVE_DMA_STARTED, 0, 0, 5, false);
  }

  @Test
  void shouldDuplicateAMessageWhenGmReloadsASenderWithAnAckInTransit() {
    FaultOutcome o = duplicateCase(McpMode.GM);
    assertTrue(o.detected(), o.toString());
    assertTrue(o.duplicated() >= 1, o.toString());
  }

  @Test
  void shouldNotDuplicateWhenFtgmRecoversASenderWithAnAckInTransit() {
    FaultOutcome o = duplicateCase(McpMode.FTGM);
    assertTrue(o.recovered(), o.toString());
    assertEquals(0, o.duplicated(), o.toString());
    assertEquals(0, o.lost(), o.toString());
    assertEquals(0, o.outOfOrder(), o.toString());
  }

  @Test
  void shouldLoseAMessageWhenGmAckedItBeforeItReachedTheHostBuffer() {
    FaultOutcome o = lostCase(McpMode.GM);
    assertTrue(o.detected(), o.toString());
    assertTrue(o.lost() >= 1, o.toString());
  }

  @Test
  void shouldNotLoseWhenFtgmAcksOnlyAfterTheDmaToTheHostBuffer() {
    FaultOutcome o = lostCase(McpMode.FTGM);
    assertTrue(o.recovered(), o.toString());
    assertEquals(0, o.lost(), o.toString());
    assertEquals(0, o.duplicated(), o.toString());
    assertEquals(0, o.outOfOrder(), o.toString());
  }
}

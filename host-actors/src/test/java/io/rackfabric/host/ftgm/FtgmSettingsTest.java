package io.rackfabric.host.ftgm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.host.nic.McpMode;
import io.rackfabric.host.nic.NicSettings;
import org.junit.jupiter.api.Test;

class FtgmSettingsTest {

  @Test
  void shouldReadTheDefaultsOfTable3WhenLoaded() {
    FtgmSettings s = FtgmSettings.create(ConfigFactory.load());
    assertEquals(McpMode.FTGM, s.mode());
    assertEquals(765_000_000, s.magicWordWaitNs() + s.cardRestoreNs());
    assertEquals(500_000_000, s.mcpReloadNs());
    assertEquals(900_000_000, s.portHandlerNs());
    assertEquals(1000, s.faults());
  }

  @Test
  void shouldNameTheValueWhenAKeyIsBad() {
    String m = assertThrows(IllegalArgumentException.class, () -> FtgmSettings.create(ConfigFactory
        .parseString("rackfabric.host.ftgm { mode = myrinet }").withFallback(ConfigFactory.load()))).getMessage();
    assertEquals("mode=myrinet not in {gm,ftgm}", m);
    m = assertThrows(IllegalArgumentException.class, () -> FtgmSettings.create(ConfigFactory
        .parseString("rackfabric.host.ftgm { magic-word-wait = 100us, campaign.rates.interface-hang = 2 }")
        .withFallback(ConfigFactory.load()))).getMessage();
    assertEquals("rate interface-hang=2.0 not in [0,1]", m);
    m = assertThrows(IllegalArgumentException.class, () -> FtgmSettings.create(ConfigFactory
        .parseString("rackfabric.host.ftgm { magic-word-wait = 100us }").withFallback(ConfigFactory.load())))
        .getMessage();
    assertTrue(m.contains("magic-word-wait=100000ns must exceed"), m);
  }

  @Test
  void shouldCostTheCopiesOnTopOfGmWhenMeasuredInTheSameRun() {
    FtgmSettings s = FtgmSettings.create(ConfigFactory.load());
    OverheadReport r = OverheadReport.measure(s, NicSettings.create(ConfigFactory.load()), 20);
    assertEquals(s.hostSendNs(), r.gmSendCpuNs());
    assertEquals(s.hostSendNs() + s.sendCopyNs(), r.ftgmSendCpuNs());
    assertEquals(s.hostReceiveNs() + s.receiveCopyNs(), r.ftgmReceiveCpuNs());
    // the copies and FTGM's firmware time on both sides, plus what the delayed ACKs add to the queues
    long copies = s.sendCopyNs() + s.receiveCopyNs() + 2 * s.timing().ftgmExtraNs();
    assertTrue(r.latencyOverheadNs() >= copies && r.latencyOverheadNs() < copies + 1_000, r.render());
  }
}

package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.FlowControlScenarioTest.fig;
import static io.rackfabric.loadtests.scenario.FlowControlScenarioTest.figures;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fabric manager's processing time ({@code fm-processing-per-packet}, {@code -per-device}):
 * the demo rack discovered with one read outstanding, without and with a cost; the discovery's
 * model time grows by what its completions and devices cost, each on the way of the next read.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class FmProcessingScenarioTest {

  @TempDir Path dir;

  private Map<String, Double> discover(String name, long perPacketNs, long perDeviceNs) throws Exception {
    Path file = dir.resolve(name + ".conf");
    Files.writeString(file, "scenario { name = " + name + ", topology = demo, mode = single-jvm, seed = 1,"
        + " run { duration = 60us, wall-limit = 2m }, invariants = [ fabric-discovered ], figures = [ fabric-manager ],"
        + " settings { rackfabric.fabric.management { enabled = on, discover-at = 10us, window = 1,"
        + " fm-processing-per-packet = " + perPacketNs + "ns, fm-processing-per-device = " + perDeviceNs + "ns } } }\n");
    return figures(FabricManagerScenarioTest.run(file, dir));
  }

  @Test
  void shouldLengthenTheDiscoveryByWhatItsPacketsAndDevicesCostWhenProcessingTakesModelTime() throws Exception {
    Map<String, Double> free = discover("fm-free", 0, 0);
    long perPacket = 150;
    long perDevice = 1_000;
    Map<String, Double> busy = discover("fm-busy", perPacket, perDevice);
    assertEquals(0, fig(free, "fm.processing_ns"));
    assertEquals(fig(free, "fm.read_requests"), fig(busy, "fm.read_requests"), "the same walk");
    double predicted = fig(busy, "fm.completions") * perPacket + fig(busy, "fm.devices") * perDevice;
    assertEquals(predicted, fig(busy, "fm.processing_ns"));
    assertEquals(fig(free, "fm.discovery_ns") + predicted, fig(busy, "fm.discovery_ns"),
        "one read at a time: every step's processing is on the way of the next read");
  }
}

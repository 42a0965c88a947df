package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.device.gpu.CopySequence.CopyRecord;
import io.rackfabric.host.device.gpu.GpuCopyPlan.Direction;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled copies on lending-vm (lending-vm-bandwidth, a native borrower's MSI straight into its
 * RAM; lending-vm-bandwidth-vm, a VM borrower's through the lender's handler), 4 KiB to 16 KiB: the
 * interrupt path's extra latency, tied to its settings.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class VmInterruptScenarioTest {

  @TempDir Path dir;

  @Test
  void shouldLengthenEveryReadCopyByTheForwardingWhenTheMsiGoesThroughTheLendersHandler() throws Exception {
    List<CopyRecord> natrem = copies("lending-vm-bandwidth", Map.of(), "natrem");
    List<CopyRecord> vmrem = copies("lending-vm-bandwidth-vm", Map.of(), "vmrem");
    List<CopyRecord> slower = copies("lending-vm-bandwidth-vm",
        Map.of("rackfabric.host.vm.guest-injection-latency", "3us"), "vmrem3");

    assertEquals(natrem.size(), vmrem.size());
    for (int i = 0; i < natrem.size(); i++) {
      CopyRecord n = natrem.get(i);
      CopyRecord v = vmrem.get(i);
      assertTrue(v.durationNs() > n.durationNs(), "the handler's detour costs: " + n + " vs " + v);
      if (v.direction() == Direction.READ) {
        // A read copy's MSI follows its last completion, nothing queued behind it: the extra is all the
        // interrupt path's, so 1 us more injection latency is 1 us more per copy.
        assertEquals(v.durationNs() + 1_000, slower.get(i).durationNs(), v + " vs " + slower.get(i));
      }
    }
  }

  /** A bundled scenario's copies from 4 KiB to 16 KiB with {@code settings}; asserts it passed. */
  private List<CopyRecord> copies(String name, Map<String, String> settings, String folder) throws Exception {
    String text = ScenarioLoader.text(name).replace("to = 1MiB", "to = 16KiB");
    ScenarioOptions options = new ScenarioOptions(null, null, null, Map.of(), null, settings);
    Scenario s = ScenarioLoader.parse(text, name + ".conf", null, ScenarioRunnerTest.KINDS, options);
    Outcome o = new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve(folder), ScenarioRunnerTest.quiet());
    assertTrue(o.passed(), o.result().notes().toString());
    List<CopyRecord> out = o.result().gpuCopies().get(0).copies();
    assertEquals(6, out.size(), "4, 8 and 16 KiB, both ways: " + out);
    return out;
  }
}

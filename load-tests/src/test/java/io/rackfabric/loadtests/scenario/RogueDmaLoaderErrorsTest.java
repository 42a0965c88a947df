package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A rogue-dma fault and the unauthorized-dma-blocked invariant, refused at load with file:line. */
class RogueDmaLoaderErrorsTest {

  @TempDir Path dir;

  static final List<String> BASE = List.of(
      "scenario {",
      "  name = rogue",
      "  topology = ladon-testbed",
      "  traffic = [ { name = a, from = mmh, to = \"0x8_0010_0000\", size = 64, interval = 1us, count = 10 } ]",
      "  faults = [",
      "    { kind = rogue-dma, target = ch2, at = 2us, to = \"0x10_0020_0000\", writes = 4, reads = 4 }",
      "  ]",
      "  invariants = [ unauthorized-dma-blocked ]",
      "}");

  ScenarioFiles files() {
    return new ScenarioFiles(dir, BASE);
  }

  @Test
  void shouldRejectARogueDmaWithNothingToSend() throws Exception {
    String m = files().problems(files().edit(6,
        "    { kind = rogue-dma, target = ch2, at = 2us, to = \"0x10_0020_0000\" }"));
    assertContains(m, "bad.conf:6: scenario.faults[0].writes: writes=0, reads=0: nothing to send");
  }

  @Test
  void shouldRejectARogueDmaWhoseTargetDoesNotDenyTheRogue() throws Exception {
    List<String> demo = files().edit(3, "  topology = demo");
    demo.set(3, "  run { duration = 10us }");
    demo.set(5, "    { kind = rogue-dma, target = ch1, at = 2us, to = \"0x1_0000_0000\", writes = 4 }");
    String m = files().problems(demo);
    assertContains(m, "bad.conf:6: scenario.faults[0].to: to=0x100000000 reaches mh, which does not deny ch1 by default");
  }

  @Test
  void shouldRejectMoreReadsThanTags() throws Exception {
    String m = files().problems(files().edit(6,
        "    { kind = rogue-dma, target = ch2, at = 2us, to = \"0x10_0020_0000\", reads = 300 }"));
    assertContains(m, "bad.conf:6: scenario.faults[0].reads: reads=300 exceeds the 256 tags");
  }

  @Test
  void shouldSuggestTheInvariantWhenItsNameIsMisspelt() throws Exception {
    String m = files().problems(files().edit(8, "  invariants = [ unauthorised-dma-blocked ]"));
    assertContains(m, "unknown invariant kind 'unauthorised-dma-blocked' (did you mean 'unauthorized-dma-blocked'?)");
  }
}

package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every scenario file shipped is one `rack run NAME` knows, and each of them loads. */
class BundledScenariosTest {

  @Test
  void shouldKnowEveryShippedScenarioByNameAndLoadEachWhenListed() throws Exception {
    Path dir = Path.of(getClass().getClassLoader().getResource("scenarios").toURI());
    Set<String> shipped = new TreeSet<>();
    try (Stream<Path> files = Files.list(dir)) {
      files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".conf"))
          .forEach(n -> shipped.add(n.substring(0, n.length() - 5)));
    }
    assertEquals(shipped, new TreeSet<>(ScenarioLoader.BUNDLED), "scenarios/ and ScenarioLoader.BUNDLED");
    for (String name : ScenarioLoader.BUNDLED) {
      assertNotNull(ScenarioLoader.loadBundled(name, ScenarioKinds.standard(), ScenarioOptions.NONE), name);
    }
  }
}

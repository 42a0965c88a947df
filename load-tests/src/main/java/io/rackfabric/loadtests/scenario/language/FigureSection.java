package io.rackfabric.loadtests.scenario.language;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.cluster.topology.Fields;
import java.util.ArrayList;
import java.util.List;

/**
 * A scenario's {@code figures = [producer, ...]}: which figure producers of the catalog make the
 * run's figures, each once; the catalog's defaults when the file does not say.
 */
final class FigureSection {

  private final ScenarioFile file;

  FigureSection(ScenarioFile file) {
    this.file = file;
  }

  /** The figure producers named, or the catalog's defaults when {@code figures} is not given. */
  List<String> figures(Fields f) {
    ConfigList list = f.list("figures", false);
    if (list == null || !f.has("figures")) {
      return file.catalog.defaultFigures();
    }
    List<String> names = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      ConfigValue item = list.get(i);
      String key = f.key("figures") + "[" + i + "]";
      if (item.valueType() != ConfigValueType.STRING) {
        file.problems.add(item.origin(), key, "expected a figure producer name, got " + Fields.describe(item));
        continue;
      }
      String name = ((String) item.unwrapped()).trim();
      if (file.catalog.figure(name).isEmpty()) {
        file.problems.add(item.origin(), key, "unknown figure producer '" + name + "'" + ScenarioFile.suggestion(name,
            file.catalog.figures().stream().map(ScenarioKind::name).toList()));
      } else if (names.contains(name)) {
        file.problems.add(item.origin(), key, "'" + name + "' is listed twice");
      } else {
        names.add(name);
      }
    }
    return names;
  }
}

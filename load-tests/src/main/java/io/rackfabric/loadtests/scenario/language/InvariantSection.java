package io.rackfabric.loadtests.scenario.language;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.cluster.topology.Fields;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A scenario's {@code invariants = [name | { kind = ..., ...params }]}: each kind from the catalog
 * with its parameters, labelled as written (the label is what a report shows) and checked by the
 * kind against the topology and the traffic.
 */
final class InvariantSection {

  private final ScenarioFile file;
  private final KindParams kindParams;

  InvariantSection(ScenarioFile file, KindParams kindParams) {
    this.file = file;
    this.kindParams = kindParams;
  }

  /** The invariants that hold up; the others are reported. */
  List<InvariantSpec> invariants(Fields f, ScenarioContext context) {
    List<InvariantSpec> out = new ArrayList<>();
    ConfigList list = f.list("invariants", false);
    if (list == null) {
      return out;
    }
    for (int i = 0; i < list.size(); i++) {
      ConfigValue item = list.get(i);
      String key = f.key("invariants") + "[" + i + "]";
      Fields obj;
      if (item.valueType() == ConfigValueType.STRING) {
        // A bare name: the kind with its defaults.
        obj = new Fields(item.atKey("kind").root(), key, file.problems);
      } else if (item.valueType() == ConfigValueType.OBJECT) {
        obj = new Fields((ConfigObject) item, key, file.problems);
      } else {
        file.problems.add(item.origin(), key, "expected an invariant name or { kind = ..., ... }, got "
            + Fields.describe(item));
        continue;
      }
      InvariantSpec spec = invariant(obj, context);
      if (spec != null) {
        out.add(spec);
      }
    }
    return out;
  }

  private InvariantSpec invariant(Fields f, ScenarioContext context) {
    String kindName = f.string("kind", true);
    if (kindName == null) {
      return null;
    }
    Optional<? extends InvariantKind> found = file.catalog.invariant(kindName);
    if (found.isEmpty()) {
      f.error("kind", "unknown invariant kind '" + kindName + "'" + ScenarioFile.suggestion(kindName,
          file.catalog.invariants().stream().map(ScenarioKind::name).toList()));
      return null;
    }
    InvariantKind kind = found.get();
    List<String> allowed = new ArrayList<>(List.of("kind"));
    kind.params().forEach(p -> allowed.add(p.name()));
    f.allowOnly(allowed.toArray(String[]::new));
    Params params = kindParams.params(f, kind.params(), context);
    if (params == null || context == null) {
      return null;
    }
    StringBuilder label = new StringBuilder(kindName);
    for (Param p : kind.params()) {
      if (f.has(p.name())) {
        Object raw = f.raw(p.name()).unwrapped();
        label.append(' ').append(p.name()).append('=').append(raw instanceof List<?> l
            ? "[" + String.join(", ", l.stream().map(String::valueOf).toList()) + "]" : String.valueOf(raw));
      }
    }
    InvariantSpec spec = new InvariantSpec(kindName, params, label.toString(), file.where(f));
    int before = file.problems.size();
    kind.check(spec, context, f::error);
    return file.problems.size() == before ? spec : null;
  }
}

package io.rackfabric.loadtests.scenario.language;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.Fields;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The parameters of a fault or invariant kind, read by the types the kind declares ({@link
 * ParamType}): durations, counts, probabilities, flags, text, endpoints (roots where asked) and
 * traffic names, each checked against the topology and the file's traffic.
 */
final class KindParams {

  private final ScenarioFile file;

  KindParams(ScenarioFile file) {
    this.file = file;
  }

  /** A kind's parameters by their declared types; null after a problem. */
  Params params(Fields f, List<Param> declared, ScenarioContext context) {
    Map<String, Object> values = new LinkedHashMap<>();
    boolean ok = true;
    for (Param p : declared) {
      if (!f.has(p.name())) {
        if (p.required()) {
          f.string(p.name(), true); // reports it missing
          ok = false;
        } else if (p.dflt() != null) {
          values.put(p.name(), p.dflt());
        }
        continue;
      }
      Object v = param(f, p, context);
      if (v == null) {
        ok = false;
      } else {
        values.put(p.name(), v);
      }
    }
    return ok ? new Params(values) : null;
  }

  private Object param(Fields f, Param p, ScenarioContext context) {
    String n = p.name();
    switch (p.type()) {
      case DURATION:
        return f.durationNs(n, null);
      case COUNT: {
        Integer c = f.integerIn(n, null, 1, Integer.MAX_VALUE);
        return c == null ? null : c.longValue();
      }
      case PROBABILITY: {
        ConfigValue v = f.raw(n);
        if (v.valueType() != ConfigValueType.NUMBER) {
          f.error(n, "expected a probability in [0,1], got " + Fields.describe(v));
          return null;
        }
        double rate = ((Number) v.unwrapped()).doubleValue();
        if (!(rate >= 0 && rate <= 1)) {
          f.error(n, n + "=" + rate + " not in [0,1]");
          return null;
        }
        return rate;
      }
      case BOOLEAN:
        return f.bool(n, false);
      case TEXT:
        return f.string(n, true);
      case ENDPOINT:
      case ROOT_ENDPOINT: {
        String id = f.string(n, true);
        if (id == null || context == null) {
          return id;
        }
        Optional<EndpointSpec> ep = context.topology().endpoint(id);
        List<EndpointSpec> candidates = context.topology().endpoints().stream()
            .filter(e -> p.type() == ParamType.ENDPOINT || e.root()).toList();
        if (ep.isEmpty() || (p.type() == ParamType.ROOT_ENDPOINT && !ep.get().root())) {
          f.error(n, (ep.isEmpty() ? "no endpoint '" + id + "' in " + context.topology().source()
              : "'" + id + "' is not a root (root = true)") + " (" + (p.type() == ParamType.ROOT_ENDPOINT
              ? "roots" : "endpoints") + ": " + Names.hint(candidates.stream().map(EndpointSpec::id).toList()) + ")");
          return null;
        }
        return id;
      }
      case TRAFFIC: {
        ConfigValue v = f.raw(n);
        List<ConfigValue> items = v.valueType() == ConfigValueType.LIST ? List.copyOf((ConfigList) v) : List.of(v);
        List<String> names = new ArrayList<>();
        boolean ok = true;
        for (ConfigValue item : items) {
          if (item.valueType() != ConfigValueType.STRING) {
            file.problems.add(item.origin(), f.key(n), "expected a traffic name, got " + Fields.describe(item));
            ok = false;
            continue;
          }
          String name = ((String) item.unwrapped()).trim();
          if (context != null && context.traffic(name).isEmpty() && file.declaredTraffic.contains(name)) {
            ok = false; // the generator has problems of its own, reported at its line
          } else if (context != null && context.traffic(name).isEmpty()) {
            file.problems.add(item.origin(), f.key(n), "no traffic named '" + name + "' (traffic: "
                + Names.hint(context.traffic().stream().map(TrafficSpec::name).toList()) + ")");
            ok = false;
          }
          names.add(name);
        }
        return ok ? List.copyOf(names) : null;
      }
      default:
        throw new IllegalStateException("unhandled parameter type " + p.type());
    }
  }
}

package io.rackfabric.loadtests.scenario.language;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.cluster.node.NicNode;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.Problems;
import io.rackfabric.host.ftgm.FaultSpec;
import io.rackfabric.host.ftgm.FtgmSettings;
import io.rackfabric.host.nic.FaultCategory;
import io.rackfabric.host.nic.McpMode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks a scenario's {@code ftgm-campaign { ... }} section (see {@link FtgmCampaign}): the NIC
 * must be one the topology has, each rate's key a failure category and its value in [0,1], the
 * rates summing to at most 1, the counts within their bounds. What the section leaves out comes
 * from {@code rackfabric.host.ftgm.campaign}. Every problem is reported at its key's line.
 */
final class FtgmCampaignSection {

  static final String KEY = "ftgm-campaign";
  /** Keys of the scenario that need a running rack, so they cannot go with a campaign. */
  static final List<String> RACK_KEYS = List.of("traffic", "faults", "nic-stream", "control-plane",
      "control-requests", "multi-jvm", "run");
  private static final int MAX_FAULTS = 1_000_000;

  private FtgmCampaignSection() {}

  /**
   * The campaign, or null when the scenario has none or it has problems (reported).
   *
   * @param config the run's configuration (the scenario's settings over the defaults): what the
   *     section leaves out
   */
  static FtgmCampaign parse(Fields scenario, TopologyRef topology, Mode mode, boolean modeFromCommandLine, long seed,
      Config config, Problems problems) {
    Fields f = scenario.object(KEY, false);
    if (f == null) {
      return null;
    }
    int before = problems.size();
    for (String k : RACK_KEYS) {
      if (scenario.has(k)) {
        scenario.error(k, "not with " + KEY + ": the campaign runs on the NIC's model in the runner's JVM and"
            + " starts no rack (its traffic and faults are the campaign's own)");
      }
    }
    if (mode == Mode.MULTI_JVM) {
      if (modeFromCommandLine) {
        f.error("--mode multi-jvm does not apply: an " + KEY + " runs in the runner's JVM and starts no rack");
      } else {
        scenario.error("mode", "mode=multi-jvm does not apply: an " + KEY + " runs in the runner's JVM and starts"
            + " no rack");
      }
    }
    f.allowOnly("nic", "faults", "modes", "rates", "ports", "messages", "message-interval", "recovery-ports",
        "overhead-messages", "parallel");
    FtgmSettings defaults = FtgmSettings.create(config);

    Set<String> nics = new TreeSet<>();
    if (topology != null) {
      NicNode.nicOf(topology.topology()).map(EndpointSpec::id).ifPresent(nics::add);
    }
    String nic = f.string("nic", true);
    if (nic != null && topology != null) {
      if (nics.isEmpty()) {
        f.error("nic", "topology " + topology.topology().name() + " has no NIC: a campaign needs a management host"
            + " (global-memory.management-host) and an endpoint with the id " + NicNode.NIC_ID);
      } else if (!nics.contains(nic)) {
        f.error("nic", "nic=" + nic + " is not a NIC of topology " + topology.topology().name() + " (NICs: "
            + String.join(", ", nics) + ")");
      }
    }
    Integer faults = bounded(f, "faults", defaults.faults(), 1, MAX_FAULTS);
    List<McpMode> modes = modes(f, problems);
    Map<String, Double> rates = rates(f, defaults, problems);
    Integer ports = bounded(f, "ports", defaults.ports(), 1, 8);
    Integer messages = bounded(f, "messages", defaults.messages(), 1, 100_000);
    Long interval = f.durationNs("message-interval", defaults.messageIntervalNs());
    if (interval != null && interval < 1) {
      f.error("message-interval", "message-interval=" + interval + "ns must be above 0");
    }
    List<Integer> recoveryPorts = recoveryPorts(f, problems);
    Integer overhead = bounded(f, "overhead-messages", 1000, 1, 100_000);
    Integer parallel = bounded(f, "parallel", 2, 1, 64);
    if (problems.size() != before || nic == null || topology == null || faults == null || modes == null
        || rates == null || ports == null || messages == null || interval == null || recoveryPorts == null
        || overhead == null || parallel == null) {
      return null;
    }
    FaultSpec spec;
    try {
      spec = FaultSpec.create(nic, rates, faults, seed, nics);
    } catch (IllegalArgumentException e) {
      f.error(e.getMessage()); // the checks above should have caught it; never a stack trace
      return null;
    }
    String where = problems.display() + ":" + (f.origin() == null ? -1 : f.origin().lineNumber());
    return new FtgmCampaign(spec, modes, ports, messages, interval, recoveryPorts, overhead, parallel, where);
  }

  private static Integer bounded(Fields f, String key, int dflt, int min, int max) {
    Integer v = f.integer(key, dflt);
    if (v != null && (v < min || v > max)) {
      f.error(key, key + "=" + v + " not in [" + min + "," + max + "]");
      return null;
    }
    return v;
  }

  /** {@code modes = [gm, ftgm]}: each once; default both, the baseline first. */
  private static List<McpMode> modes(Fields f, Problems problems) {
    if (!f.has("modes")) {
      return List.of(McpMode.GM, McpMode.FTGM);
    }
    ConfigList list = f.list("modes", false);
    if (list == null) {
      return null;
    }
    List<McpMode> out = new ArrayList<>();
    boolean ok = true;
    for (int i = 0; i < list.size(); i++) {
      ConfigValue item = list.get(i);
      String key = f.key("modes") + "[" + i + "]";
      String text = item.valueType() == ConfigValueType.STRING ? ((String) item.unwrapped()).trim() : null;
      McpMode m = null;
      if (text != null) {
        try {
          m = FtgmSettings.mode(text);
        } catch (IllegalArgumentException e) {
          m = null;
        }
      }
      if (m == null) {
        problems.add(item.origin(), key, "mode=" + (text == null ? Fields.describe(item) : text)
            + " not in {gm, ftgm}");
        ok = false;
      } else if (out.contains(m)) {
        problems.add(item.origin(), key, "'" + text + "' is listed twice");
        ok = false;
      } else {
        out.add(m);
      }
    }
    if (list.isEmpty()) {
      f.error("modes", "modes=[] names no mode (gm, ftgm)");
      ok = false;
    }
    return ok ? out : null;
  }

  /** {@code rates { interface-hang = 0.286, ... }}: each category once, in [0,1], summing to at most 1. */
  private static Map<String, Double> rates(Fields f, FtgmSettings defaults, Problems problems) {
    Map<String, Double> out = new LinkedHashMap<>();
    if (!f.has("rates")) {
      defaults.rates().forEach(r -> out.put(r.category().key(), r.rate()));
      return out;
    }
    Fields r = f.object("rates", false);
    if (r == null) {
      return null;
    }
    ConfigObject object = (ConfigObject) f.raw("rates");
    boolean ok = true;
    double sum = 0;
    EnumSet<FaultCategory> seen = EnumSet.noneOf(FaultCategory.class);
    for (Map.Entry<String, ConfigValue> e : object.entrySet()) {
      String key = r.key(e.getKey());
      ConfigValue v = e.getValue();
      FaultCategory category;
      try {
        category = FaultCategory.parse(e.getKey());
      } catch (IllegalArgumentException ex) {
        problems.add(v.origin(), key, ex.getMessage());
        ok = false;
        continue;
      }
      if (!seen.add(category)) {
        problems.add(v.origin(), key, "category=" + category.key() + " given twice");
        ok = false;
        continue;
      }
      if (v.valueType() != ConfigValueType.NUMBER) {
        problems.add(v.origin(), key, "expected a probability in [0,1], got " + Fields.describe(v));
        ok = false;
        continue;
      }
      double rate = ((Number) v.unwrapped()).doubleValue();
      if (!(rate >= 0 && rate <= 1)) {
        problems.add(v.origin(), key, "rate " + category.key() + "=" + rate + " not in [0,1]");
        ok = false;
        continue;
      }
      sum += rate;
      out.put(category.key(), rate);
    }
    if (ok && sum > 1 + 1e-9) {
      f.error("rates", "rates sum=" + sum + " exceeds 1 (what is left over has no impact)");
      ok = false;
    }
    return ok ? out : null;
  }

  /** {@code recovery-ports = [1, 2, 4, 8]}: open-port counts in [1,8], each once. */
  private static List<Integer> recoveryPorts(Fields f, Problems problems) {
    if (!f.has("recovery-ports")) {
      return List.of(1, 2, 4, 8);
    }
    ConfigList list = f.list("recovery-ports", false);
    if (list == null) {
      return null;
    }
    List<Integer> out = new ArrayList<>();
    boolean ok = true;
    for (int i = 0; i < list.size(); i++) {
      ConfigValue item = list.get(i);
      String key = f.key("recovery-ports") + "[" + i + "]";
      Integer n = f.integerValue(item, key);
      if (n == null) {
        ok = false;
      } else if (n < 1 || n > 8) {
        problems.add(item.origin(), key, "recovery-ports=" + n + " not in [1,8] (open ports of a card)");
        ok = false;
      } else if (out.contains(n)) {
        problems.add(item.origin(), key, n + " is listed twice");
        ok = false;
      } else {
        out.add(n);
      }
    }
    return ok ? out : null;
  }
}

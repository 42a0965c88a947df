package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.Problems;
import io.rackfabric.host.controlplane.Takeover;
import java.util.List;
import java.util.Locale;

/**
 * A scenario's {@code control-plane} (how the management-host pair takes over, and the baseline
 * run it is compared with) and {@code control-requests} (IOMMU page requests each compute host's
 * control-plane driver makes during the run). Both need the topology's control-plane section.
 */
final class ControlPlaneSection {

  private ControlPlaneSection() {}

  /** The take-over modes of {@code control-plane}: each null when not given. */
  record Modes(Takeover takeover, Takeover baseline) {}

  /** {@code control-plane { takeover = ladon | restart, baseline = restart | ladon }}. */
  static Modes controlPlane(Fields f, TopologyRef topology) {
    Fields c = f.object("control-plane", false);
    if (c == null) {
      return new Modes(null, null);
    }
    c.allowOnly("takeover", "baseline");
    Takeover mode = takeoverMode(c, "takeover", true);
    Takeover baseline = takeoverMode(c, "baseline", false);
    boolean noPair = topology != null && topology.topology().controlPlane() == null;
    if (mode != null && noPair) {
      c.error("takeover", "topology " + topology.topology().name()
          + " has no control-plane section, so no management host takes over");
    }
    if (baseline != null && noPair) {
      c.error("baseline", "topology " + topology.topology().name()
          + " has no control-plane section, so there is no take-over to compare");
      baseline = null;
    } else if (baseline != null && mode != null && baseline == mode) {
      c.error("baseline", "baseline=" + text(baseline) + " is the takeover mode itself: the baseline run"
          + " compares the other one (takeover=" + text(mode) + ")");
      baseline = null;
    }
    return new Modes(mode, baseline);
  }

  private static Takeover takeoverMode(Fields c, String key, boolean required) {
    String text = c.string(key, required);
    if (text == null) {
      return null;
    }
    return switch (text) {
      case "ladon" -> Takeover.LADON;
      case "restart" -> Takeover.RESTART;
      default -> {
        c.error(key, key + "=" + text + " not in {ladon, restart}");
        yield null;
      }
    };
  }

  private static String text(Takeover t) {
    return t.name().toLowerCase(Locale.ROOT);
  }

  /**
   * {@code control-requests { from = [ch1, ...], count = N, interval = 100ms }}: each host's
   * control-plane driver opens N IOMMU pages, one per interval: null when not given.
   */
  static ControlRequests controlRequests(Fields f, TopologyRef topology, Problems problems) {
    Fields n = f.object("control-requests", false);
    if (n == null) {
      return null;
    }
    n.allowOnly("from", "count", "interval");
    int before = problems.size();
    if (topology != null && topology.topology().controlPlane() == null) {
      n.error("topology " + topology.topology().name()
          + " has no control-plane section: control requests need a management-host pair");
    }
    List<String> hosts = NicStreamSection.computeHosts(n, topology, problems);
    Integer count = n.integerIn("count", null, 1, ControlRequests.MAX_COUNT);
    if (count == null && !n.has("count")) {
      n.error("count", "missing (required): requests each host issues");
    }
    Long interval = n.durationNs("interval", 100_000_000L);
    if (interval != null && interval < 1) {
      n.error("interval", "interval=" + interval + "ns must be above 0");
    }
    if (problems.size() != before || count == null || interval == null) {
      return null;
    }
    return new ControlRequests(hosts, count, interval);
  }
}

package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.loadtests.scenario.language.TrafficRoutes.Route;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A scenario's {@code traffic = [{ from, to, op, size, interval | rate, count, start, payload,
 * follow-routes }]}:
 * each generator's own values first ({@link TrafficDraft}, before the run's length is known, since
 * the traffic's end may make it), then its source, route and the region it writes or reads, checked
 * against the topology and against the other generators.
 */
final class TrafficSection {

  static final long DEFAULT_INTERVAL_NS = 1_000L;
  static final int DEFAULT_SIZE = 64;

  private final ScenarioFile file;

  TrafficSection(ScenarioFile file) {
    this.file = file;
  }

  /** A generator's own values before its route is known; nulls where they had problems. */
  static final class TrafficDraft {
    Fields at;
    String name;
    String from;
    String to;
    Long address;
    TrafficSpec.Op op;
    Integer size;
    Long interval;
    Long count;
    Long start;
    boolean payload;
    boolean followRoutes;
    boolean valid = true;
  }

  /** A generator's own values, each checked alone. */
  TrafficDraft draft(Fields t) {
    TrafficDraft d = new TrafficDraft();
    d.at = t;
    t.allowOnly("name", "from", "to", "op", "size", "interval", "rate", "count", "start", "payload",
        "follow-routes");
    d.name = t.string("name", false);
    if (d.name != null && !ScenarioFile.NAME.matcher(d.name).matches()) {
      t.error("name", "name '" + d.name + "' must be letters, digits, '_', '-' or '.'");
      d.name = null;
    }
    d.from = t.string("from", true);
    d.to = t.string("to", true);
    if (d.to != null && Character.isDigit(d.to.charAt(0))) {
      try {
        d.address = Addresses.parse(d.to);
      } catch (IllegalArgumentException e) {
        t.error("to", e.getMessage());
        d.valid = false;
      }
    }
    String op = Optional.ofNullable(t.string("op", false)).orElse("write");
    switch (op.toLowerCase(Locale.ROOT)) {
      case "write" -> d.op = TrafficSpec.Op.WRITE;
      case "read" -> d.op = TrafficSpec.Op.READ;
      default -> {
        t.error("op", "op=" + op + " not in {write, read}");
        d.valid = false;
      }
    }
    d.size = t.has("size") ? sizeOf(t) : Integer.valueOf(DEFAULT_SIZE);
    if (t.has("interval") && t.has("rate")) {
      t.error("rate", "give either interval or rate, not both");
      d.valid = false;
    } else if (t.has("rate")) {
      String rate = t.string("rate", true);
      if (rate != null) {
        try {
          double perSecond = Durations.parseRate(rate);
          if (perSecond > 1e9) {
            t.error("rate", "rate " + rate + " is above one request per model nanosecond; use interval = 0ns for"
                + " requests as fast as credits allow");
            d.valid = false;
          } else {
            d.interval = Math.round(1e9 / perSecond);
          }
        } catch (IllegalArgumentException e) {
          t.error("rate", e.getMessage());
          d.valid = false;
        }
      }
    } else {
      d.interval = t.durationNs("interval", DEFAULT_INTERVAL_NS);
    }
    if (t.has("count")) {
      // The count is parsed as an int (the longs below are for products of it); that is its range.
      Integer c = t.integerIn("count", null, 1, Integer.MAX_VALUE);
      d.count = c == null ? null : c.longValue();
      d.valid &= c != null;
    }
    d.start = t.durationNs("start", 0L);
    Boolean payload = t.bool("payload", true);
    d.payload = payload == null || payload;
    d.followRoutes = Boolean.TRUE.equals(t.bool("follow-routes", false));
    d.valid &= d.from != null && d.to != null && d.size != null && d.interval != null && d.start != null;
    return d;
  }

  private static Integer sizeOf(Fields t) {
    Long size = t.address("size", true);
    if (size == null) {
      return null;
    }
    if (size < 1 || size > 4096) {
      t.error("size", "size=" + size + " not in [1,4096] bytes (one request is at most 4 KiB)");
      return null;
    }
    return size.intValue();
  }

  /** The run's model end: its duration, or the end of the traffic that has a count. */
  static long modelEnd(Long duration, List<TrafficDraft> drafts) {
    if (duration != null) {
      return duration;
    }
    long end = 0;
    for (TrafficDraft d : drafts) {
      if (d.count != null && d.interval != null && d.start != null) {
        end = Math.max(end, d.start + Math.max(1, d.count * d.interval));
      }
    }
    return end;
  }

  /** The generators whose values, routes and regions hold up; the others are reported. */
  List<TrafficSpec> traffic(List<TrafficDraft> drafts, RunLength run, Topology topology) {
    TrafficRoutes routes = new TrafficRoutes(topology);
    List<TrafficSpec> specs = new ArrayList<>();
    Map<String, TrafficDraft> bySource = new HashMap<>();
    Map<String, TrafficDraft> byName = new HashMap<>();
    List<TrafficDraft> ofSpec = new ArrayList<>();
    for (TrafficDraft d : drafts) {
      Fields t = d.at;
      if (d.from != null) {
        Optional<EndpointSpec> src = topology.endpoint(d.from);
        if (src.isEmpty()) {
          t.error("from", (topology.switchSpec(d.from).isPresent() ? "'" + d.from + "' is a switch" : "no endpoint '"
              + d.from + "' in " + topology.source()) + "; traffic starts at an endpoint (endpoints: "
              + Names.hint(topology.endpoints().stream().map(EndpointSpec::id).toList()) + ")");
          d.valid = false;
        } else {
          TrafficDraft earlier = bySource.putIfAbsent(d.from, d);
          if (earlier != null) {
            t.error("from", d.from + " already runs the generator at line " + ScenarioFile.line(earlier.at)
                + "; an endpoint runs one traffic job at a time, so give each generator its own source");
            d.valid = false;
          }
        }
      }
      if (d.address == null && d.to != null && d.from != null && topology.endpoint(d.to).isEmpty()) {
        t.error("to", "'" + d.to + "' is neither an address (\"0x1000\") nor an endpoint of " + topology.source()
            + " (endpoints: " + Names.hint(topology.endpoints().stream().map(EndpointSpec::id).toList()) + ")");
        d.valid = false;
      }
      if (d.count == null && d.interval != null) {
        if (!run.hasDuration()) {
          t.error("count", "missing (required without run.duration: how many requests?)");
          d.valid = false;
        } else if (d.interval == 0) {
          t.error("count", "missing (required with interval = 0: requests all stamped at start)");
          d.valid = false;
        } else if (d.start != null && d.start < run.durationNs()) {
          d.count = (run.durationNs() - d.start + d.interval - 1) / d.interval;
        }
      }
      if (d.start != null && run.hasDuration() && d.start >= run.durationNs()) {
        t.error("start", "start=" + Durations.text(d.start) + " is not inside the run (run.duration = "
            + Durations.text(run.durationNs()) + ")");
        d.valid = false;
      } else if (d.count != null && d.interval != null && d.start != null && run.hasDuration()
          && d.start + (d.count - 1) * d.interval >= run.durationNs()) {
        t.error("count", "the last of " + d.count + " requests is stamped "
            + Durations.text(d.start + (d.count - 1) * d.interval) + ", not inside the run (run.duration = "
            + Durations.text(run.durationNs()) + ")");
        d.valid = false;
      }
      if (!d.valid || d.count == null) {
        continue;
      }
      boolean read = d.op == TrafficSpec.Op.READ;
      Route route;
      try {
        route = d.address != null ? routes.toAddress(d.from, d.address, read) : routes.toEndpoint(d.from, d.to, read);
      } catch (IllegalArgumentException e) {
        t.error("to", e.getMessage());
        continue;
      }
      String region = routes.regionProblem(d.from, route, d.count, d.size, read);
      if (region != null) {
        t.error(d.at.has("count") ? "count" : "to", region);
        continue;
      }
      String mailbox = controlPageProblem(topology, route, d);
      if (mailbox != null) {
        t.error("to", mailbox);
        continue;
      }
      String name = d.name != null ? d.name : d.from + "-to-" + route.sink();
      TrafficDraft sameName = byName.putIfAbsent(name, d);
      if (sameName != null) {
        t.error(d.name != null ? "name" : "to", "traffic name '" + name + "' is taken by the generator at line "
            + ScenarioFile.line(sameName.at) + (d.name == null ? "; give this one a name" : ""));
        continue;
      }
      d.name = name;
      specs.add(new TrafficSpec(name, d.from, d.to, d.op, route.address(), route.sink(), route.sinkAddress(),
          d.size, d.interval, d.count, d.start, d.payload, route.path(), file.where(t), d.followRoutes));
      ofSpec.add(d);
    }
    checkOverlaps(specs, ofSpec);
    return specs;
  }

  /**
   * Traffic must keep off the pages the fail-over software watches (the control pages): it takes a
   * write there for a protocol word, and the endpoint leaves watched writes out of the stream's
   * accounting. Reads are refused too: nothing a generator measures is in a mailbox.
   */
  private static String controlPageProblem(Topology topology, Route route, TrafficDraft d) {
    if (topology.globalMemorySpec() == null) {
      return null;
    }
    AddressRange region = AddressRange.ofSize(route.sinkAddress(), d.count * d.size);
    for (AddressRange page : topology.globalMemorySpec().controlPagesOf(route.sink())) {
      if (region.overlaps(page)) {
        return (d.op == TrafficSpec.Op.WRITE ? "writes " : "reads ") + range(region) + " of " + route.sink()
            + ", overlapping its control page " + range(page) + ", where the data-plane fail-over keeps its"
            + " mailboxes (global-memory.control-page of " + topology.source() + "): start the traffic"
            + " outside the page";
      }
    }
    return null;
  }

  /**
   * Write generators own their regions of the sink's memory: two that overlap would make the
   * sink's contents (and any check of them) depend on the order the writes arrived in.
   */
  private void checkOverlaps(List<TrafficSpec> specs, List<TrafficDraft> drafts) {
    for (int i = 0; i < specs.size(); i++) {
      TrafficSpec a = specs.get(i);
      if (!a.writes()) {
        continue;
      }
      for (int j = 0; j < i; j++) {
        TrafficSpec b = specs.get(j);
        if (b.writes() && a.sink().equals(b.sink()) && a.sinkRegion().overlaps(b.sinkRegion())) {
          drafts.get(i).at.error("to", "writes " + range(a.sinkRegion()) + " of " + a.sink() + ", overlapping "
              + range(b.sinkRegion()) + " that traffic '" + b.name() + "' (line " + ScenarioFile.line(drafts.get(j).at)
              + ") writes: give each write generator its own region");
        }
      }
    }
  }

  private static String range(AddressRange r) {
    return "[" + Addresses.hex(r.base()) + ", " + Addresses.hex(r.limit() + 1) + ")";
  }
}

package io.rackfabric.fabric.management;

import com.typesafe.config.Config;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code rackfabric.fabric.management}: whether a fabric manager discovers the fabric over its
 * actors, from which endpoint, from what model time and with how many reads outstanding; and the
 * election of the primary and secondary fabric managers among the candidates.
 *
 * @param fabricManager the endpoint id, "" for the topology's default (see reference.conf)
 * @param discoverAtNs model time of the discovery's start, ns
 * @param candidates the endpoints that run a fabric-manager driver, best priority first; empty:
 *     the topology's control-plane pair, else {@code fabricManager}
 * @param claimAtNs model time a candidate claims at, ns (once its port is trained)
 * @param claimAtByCandidate a candidate's own claim time, ns, where it differs
 * @param settleNs model time from a candidate's claim to its reading the outcome, ns
 * @param heartbeatNs model time between the primary's heartbeats to the secondary, ns
 * @param watchTimeoutNs model time without a heartbeat after which the secondary takes over, ns
 * @param keepDatabase whether the primary sends the secondary its topology database and the
 *     secondary takes it over (else it discovers the fabric on taking over)
 * @param distributePaths whether the primary computes the endpoints' paths and distributes them
 *     into their path tables whenever its database settles
 * @param routesPerDestination routes per destination in a path table: 1, or 2 for an alternate
 *     avoiding the chosen route's second device ({@link PathComputation})
 * @param processing the fabric manager's own processing time per packet and per device
 * @param writeNtbWindows whether the primary writes the NTB ports' windows the rack's layout gives
 *     (a Ladon rack's global memory) once it has found their chips ({@link NtbWindowCapability})
 */
public record ManagementSettings(boolean enabled, String fabricManager, long discoverAtNs, int window,
    List<String> candidates, long claimAtNs, Map<String, Long> claimAtByCandidate, long settleNs, long heartbeatNs,
    long watchTimeoutNs, boolean keepDatabase, boolean distributePaths, int routesPerDestination,
    ProcessingCost processing, boolean writeNtbWindows) {

  public ManagementSettings {
    if (routesPerDestination < 1 || routesPerDestination > PathTableCapability.MAX_RANKS) {
      throw new IllegalArgumentException("routes-per-destination=" + routesPerDestination + " not in [1,"
          + PathTableCapability.MAX_RANKS + "]");
    }
    if (processing == null) {
      throw new IllegalArgumentException("processing is null (use ProcessingCost.NONE)");
    }
    if (fabricManager == null) {
      throw new IllegalArgumentException("fabric-manager is null (use \"\" for the topology's default)");
    }
    if (discoverAtNs < 0) {
      throw new IllegalArgumentException("discover-at=" + discoverAtNs + "ns is negative");
    }
    if (window < 1 || window > Pi4ReadRequest.MAX_TRANSACTION + 1) {
      throw new IllegalArgumentException("window=" + window + " not in [1," + (Pi4ReadRequest.MAX_TRANSACTION + 1) + "]");
    }
    candidates = List.copyOf(candidates);
    if (new HashSet<>(candidates).size() != candidates.size()) {
      throw new IllegalArgumentException("election.candidates=" + candidates + " names a candidate twice");
    }
    claimAtByCandidate = Map.copyOf(claimAtByCandidate);
    if (settleNs <= 0) {
      throw new IllegalArgumentException("election.settle=" + settleNs + "ns is not positive");
    }
    for (String c : new TreeMap<>(claimAtByCandidate).keySet()) {
      if (claimAtByCandidate.get(c) < 0) {
        throw new IllegalArgumentException("election.claim-at-of." + c + "=" + claimAtByCandidate.get(c) + "ns is negative");
      }
    }
    if (heartbeatNs <= 0) {
      throw new IllegalArgumentException("election.heartbeat=" + heartbeatNs + "ns is not positive");
    }
    if (watchTimeoutNs <= heartbeatNs) {
      throw new IllegalArgumentException("election.watch-timeout=" + watchTimeoutNs + "ns is not longer than"
          + " election.heartbeat=" + heartbeatNs + "ns: the secondary would take over from a live primary");
    }
    if (claimAtNs < 0) {
      throw new IllegalArgumentException("election.claim-at=" + claimAtNs + "ns is negative");
    }
    long latest = claimAtByCandidate.values().stream().mapToLong(Long::longValue).max().orElse(0);
    long decided = Math.max(claimAtNs, latest) + settleNs;
    if (decided > discoverAtNs) {
      throw new IllegalArgumentException("the election decides at " + decided + "ns (latest claim + election.settle),"
          + " after discover-at=" + discoverAtNs + "ns: the primary must be known before it discovers");
    }
  }

  /** The settings without an election's own values (tests, and racks that name one fabric manager). */
  public ManagementSettings(boolean enabled, String fabricManager, long discoverAtNs, int window) {
    this(enabled, fabricManager, discoverAtNs, window, List.of(), 0, Map.of(), Math.max(1, discoverAtNs), 2_000,
        6_000, true, true, 1, ProcessingCost.NONE, false);
  }

  /** Model time candidate {@code id} claims at. */
  public long claimAt(String id) {
    return claimAtByCandidate.getOrDefault(id, claimAtNs);
  }

  /** Model time candidate {@code id} reads the outcome at. */
  public long decideAt(String id) {
    return claimAt(id) + settleNs;
  }

  public static ManagementSettings create(Config root) {
    Config c = root.getConfig("rackfabric.fabric.management");
    Config e = c.getConfig("election");
    List<String> candidates = new java.util.ArrayList<>();
    for (String id : e.getString("candidates").split(",")) {
      if (!id.isBlank()) {
        candidates.add(id.trim());
      }
    }
    return new ManagementSettings(c.getBoolean("enabled"), c.getString("fabric-manager"),
        c.getDuration("discover-at").toNanos(), c.getInt("window"), candidates,
        e.getDuration("claim-at").toNanos(), claimTimes(e.getString("claim-at-of")), e.getDuration("settle").toNanos(),
        e.getDuration("heartbeat").toNanos(), e.getDuration("watch-timeout").toNanos(), e.getBoolean("keep-database"),
        c.getBoolean("distribute-paths"), c.getInt("routes-per-destination"), new ProcessingCost(c.getDuration("fm-processing-per-packet").toNanos(),
        c.getDuration("fm-processing-per-device").toNanos()), c.getBoolean("write-ntb-windows"));
  }

  /** "bmh=3us, mmh=1us": each candidate's own claim time. */
  static Map<String, Long> claimTimes(String text) {
    Map<String, Long> out = new TreeMap<>();
    for (String entry : text.split(",")) {
      if (entry.isBlank()) {
        continue;
      }
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("election.claim-at-of entry '" + entry.trim() + "' is not ID=DURATION");
      }
      String value = entry.substring(eq + 1).trim();
      try {
        out.put(entry.substring(0, eq).trim(),
            com.typesafe.config.ConfigFactory.parseString("d = " + value).getDuration("d").toNanos());
      } catch (com.typesafe.config.ConfigException ex) {
        throw new IllegalArgumentException("election.claim-at-of entry '" + entry.trim() + "': " + value
            + " is no duration");
      }
    }
    return out;
  }
}

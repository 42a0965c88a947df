package io.rackfabric.loadtests.scenario;

import io.rackfabric.cluster.topology.Component;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.Topology;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a run's faults did to the rack, as the invariants read it: link ends taken down and not
 * brought back, every end a fault ever touched, components stopped and nodes killed. Thread-safe:
 * wall-time faults apply from a timer thread while the run reads it.
 */
final class FaultedEnds {

  private final Topology topology;
  /** Ends taken down by link faults and not brought back. */
  private final Set<String> linkDown = ConcurrentHashMap.newKeySet();
  private final Set<String> everDown = Collections.synchronizedSet(new LinkedHashSet<>());
  private final Set<String> stopped = ConcurrentHashMap.newKeySet();
  private final Set<String> killedNodes = ConcurrentHashMap.newKeySet();

  FaultedEnds(Topology topology) {
    this.topology = topology;
  }

  void linkUp(String end) {
    linkDown.remove(end);
  }

  void linkDown(String end) {
    linkDown.add(end);
    touched(end);
  }

  /** A fault touched {@code end}, and so its link's other end. */
  void touched(String end) {
    everDown.add(end);
    topology.linkAt(end).ifPresent(l -> everDown.add(l.other(end)));
  }

  /** Component {@code id} was stopped: every end it owns is touched. */
  void stopped(String id) {
    stopped.add(id);
    endsOf(id).forEach(this::touched);
  }

  void killed(String node) {
    killedNodes.add(node);
  }

  /** Node {@code node} was killed and started again: its components run again (their ends stay touched). */
  void restarted(String node) {
    killedNodes.remove(node);
  }

  boolean isKilled(String node) {
    return killedNodes.contains(node);
  }

  /** The link ends a component owns: an endpoint's own, or each of a switch's ports. */
  Set<String> endsOf(String id) {
    return new LinkedHashSet<>(topology.endsOf(id));
  }

  /** Whether component {@code id} still runs: not stopped, and not on a killed node. */
  boolean reachable(String id) {
    if (stopped.contains(id)) {
      return false;
    }
    Optional<Component> c = topology.component(id);
    return c.isEmpty() || !killedNodes.contains(c.get().node());
  }

  /** Whether the link at {@code end} is down by a fault, at either end. */
  boolean isDown(String end) {
    if (linkDown.contains(end) || !reachable(LinkSpec.componentOf(end))) {
      return true;
    }
    String partner = topology.linkAt(end).map(l -> l.other(end)).orElse(null);
    return partner != null && (linkDown.contains(partner) || !reachable(LinkSpec.componentOf(partner)));
  }

  Set<String> everDown() {
    synchronized (everDown) {
      return Set.copyOf(everDown);
    }
  }

  Set<String> failedComponents() {
    Set<String> failed = new HashSet<>(stopped);
    for (String node : killedNodes) {
      topology.placedOn(node).forEach(c -> failed.add(c.id()));
    }
    return Set.copyOf(failed);
  }
}

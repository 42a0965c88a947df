package io.rackfabric.cluster.wire;

import io.rackfabric.cluster.node.BootSequence;
import io.rackfabric.cluster.node.ControlPlaneBoot;
import io.rackfabric.cluster.node.RackNode;
import io.rackfabric.fabric.wire.WireRegistrations;
import java.util.List;

/**
 * cluster-config's classes on the wire (ids 3000..3999). Ids are permanent: never renumber, never
 * reuse a retired one. 3000..3019: the control plane's boot (a run asks it from another JVM);
 * 3020..3039: a node's guardian (heap readings).
 */
public final class ClusterWireRegistrations implements WireRegistrations {

  private static final List<Entry> ENTRIES = List.of(
      Entry.of(3000, ControlPlaneBoot.GetProgress.class),
      Entry.of(3001, ControlPlaneBoot.AwaitBooted.class),
      Entry.of(3002, ControlPlaneBoot.BootProgress.class),
      Entry.of(3003, BootSequence.Step.class),
      Entry.of(3020, RackNode.MeasureHeap.class),
      Entry.of(3021, RackNode.HeapReading.class));

  @Override
  public List<Entry> registrations() {
    return ENTRIES;
  }
}

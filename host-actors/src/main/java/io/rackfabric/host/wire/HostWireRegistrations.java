package io.rackfabric.host.wire;

import io.rackfabric.fabric.wire.WireRegistrations;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.messaging.DatagramService;
import io.rackfabric.host.messaging.DatagramStats;
import java.util.List;

/**
 * host-actors' id table (range 2000..2999). Ids are permanent: never renumber, never reuse a
 * retired id. Each package has its own block.
 */
public final class HostWireRegistrations implements WireRegistrations {

  private static final List<Entry> ENTRIES = List.of(
      // 2300..2399 messaging: the datagram service
      Entry.of(2300, DatagramService.Send.class),
      Entry.of(2301, DatagramService.Queued.class),
      Entry.of(2302, DatagramService.SendRefused.class),
      Entry.of(2303, DatagramService.Subscribe.class),
      Entry.of(2304, DatagramService.Unsubscribe.class),
      Entry.of(2305, DatagramService.Delivered.class),
      Entry.of(2306, DatagramService.UsePlane.class),
      Entry.of(2307, DatagramService.PlaneSwitched.class),
      Entry.of(2308, DatagramService.PlaneRefused.class),
      Entry.of(2309, DatagramService.GetStats.class),
      Entry.of(2310, DatagramStats.class),
      Entry.of(2311, DatagramStats.PeerStats.class),
      // host/memory's enum, a field of UsePlane and PeerStats; registered here until memory has
      // messages of its own (then move it to memory's block under this same id).
      Entry.of(2390, Plane.class));

  @Override
  public List<Entry> registrations() {
    return ENTRIES;
  }
}

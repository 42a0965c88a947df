package io.rackfabric.fabric.management;

import io.rackfabric.fabric.management.StructuralFabric.PortRef;
import io.rackfabric.fabric.tlp.FabricMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * A fabric for the tests: a {@link ManagementAgent} per device, links between their ports, and an
 * injected clock: every link takes {@code hopNs}, devices answer at once. It carries
 * {@link FabricMessage}s turn by turn as the switch ports and endpoints do, and hands the fabric
 * manager's device's completions and events to its {@link FabricManagerDriver}.
 */
final class HopFabric {

  private record Delivery(long at, long order, String device, int ingress, FabricMessage message) {}

  final Map<String, ManagementAgent> agents = new LinkedHashMap<>();
  private final Map<PortRef, PortRef> links = new HashMap<>();
  private final PriorityQueue<Delivery> queue = new PriorityQueue<>((a, b) ->
      a.at != b.at ? Long.compare(a.at, b.at) : Long.compare(a.order, b.order));
  private final long hopNs;
  private final String fm;
  final FabricManagerDriver driver;
  /** Every message put on a link, in order. */
  final List<FabricMessage> sent = new ArrayList<>();
  /** Every port order a device manager took from a write, as "device:port:active@time". */
  final List<String> orders = new ArrayList<>();
  private long order;
  long now;

  HopFabric(List<DeviceDescription> devices, List<List<PortRef>> links, String fm, int window, long hopNs) {
    this(devices, links, fm, window, hopNs, false);
  }

  /** As above; with {@code paths} the fabric manager distributes the endpoints' paths. */
  HopFabric(List<DeviceDescription> devices, List<List<PortRef>> links, String fm, int window, long hopNs,
      boolean paths) {
    this(devices, links, fm, window, hopNs, paths, ProcessingCost.NONE);
  }

  /** As above; the fabric manager's processing costs {@code cost}. */
  HopFabric(List<DeviceDescription> devices, List<List<PortRef>> links, String fm, int window, long hopNs,
      boolean paths, ProcessingCost cost) {
    for (DeviceDescription d : devices) {
      agents.put(d.id(), ManagementAgent.of(d));
    }
    for (List<PortRef> l : links) {
      this.links.put(l.get(0), l.get(1));
      this.links.put(l.get(1), l.get(0));
    }
    this.hopNs = hopNs;
    this.fm = fm;
    this.driver = new FabricManagerDriver(fm, agents.get(fm).manager().space(), 0, window, null, paths, 1, cost);
  }

  /** Starts the discovery at {@code at} and carries every packet until none is left. */
  void discover(long at) {
    now = at;
    driver.start(at).forEach(m -> send(fm, m, m.originAt()));
    local(at);
    run();
  }

  /** Takes over {@code known} at {@code at}, re-reading {@code reread}, and carries every packet until none is left. */
  void resume(TopologyDatabase known, List<Long> reread, long at) {
    now = at;
    driver.resume(known, reread, at).forEach(m -> send(fm, m, at));
    local(at);
    run();
  }

  /** Port {@code port} of {@code device} goes down at {@code at}; what follows is carried. */
  void portDown(String device, int port, long at) {
    now = at;
    agents.get(device).onPortState(port, io.rackfabric.fabric.link.DataLinkState.DL_INACTIVE, at)
        .ifPresent(e -> send(device, e, at));
    run();
  }

  /** {@code message} leaves {@code device} through the turn before its pointer. */
  void send(String device, FabricMessage message, long at) {
    PortRef peer = links.get(new PortRef(device, message.turns().get(message.pointer() - 1)));
    if (peer != null) {
      sent.add(message);
      queue.add(new Delivery(at + hopNs, order++, peer.device(), peer.port(), message));
    }
  }

  /** The fabric manager's writes to its own device, applied there as its endpoint does. */
  private void local(long at) {
    long done = Math.max(at, driver.busyUntil());
    driver.takeLocalWrites().forEach(w -> agents.get(fm).applyWrite(w, done));
    takeOrders(fm, done);
  }

  private void takeOrders(String device, long at) {
    for (ManagementAgent.PortOrder o : agents.get(device).takeOrders()) {
      orders.add(device + ":" + o.port() + ":" + o.active() + "@" + at);
    }
    for (ManagementAgent.WindowOrder o : agents.get(device).takeWindowOrders()) {
      orders.add(device + ":" + o.port() + ":windows@" + at);
    }
  }

  /** Carries every packet in flight until none is left. */
  void carry() {
    run();
  }

  private void run() {
    while (!queue.isEmpty()) {
      Delivery d = queue.poll();
      now = d.at;
      FabricMessage m = d.message;
      boolean forManager = m.packet() instanceof Pi4ReadCompletion || m.packet() instanceof Pi5Event;
      if (!m.arrived()) {
        send(d.device, m.passedThrough(d.ingress), d.at);
      } else if (forManager && d.device.equals(fm)) {
        driver.onArrival(m, d.at).forEach(out -> send(fm, out, out.originAt())); // after its processing
        local(d.at);
      } else {
        agents.get(d.device).onArrival(m, d.ingress, d.at).ifPresent(out -> send(d.device, out, d.at));
        takeOrders(d.device, d.at);
      }
    }
  }
}

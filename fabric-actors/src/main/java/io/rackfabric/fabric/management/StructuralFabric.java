package io.rackfabric.fabric.management;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A fabric as plain data: every device's configuration space and the links between their ports.
 * It answers a PI-4 read by following the request's route from the fabric manager's device port by
 * port to the device at its end, as the fabric would, but with no actors, no links' timing and no
 * model time: it is the structure the fabric is built from, for testing the fabric manager's logic
 * and for discovering a topology without starting it. A packet that cannot travel its route (a port
 * that does not exist, leads nowhere, or carries no management packets) is answered with error.
 */
public final class StructuralFabric {

  /** A device's port: {@code device} is a device id. */
  public record PortRef(String device, int port) {
    @Override
    public String toString() {
      return device + "." + port;
    }
  }

  /** What {@link #discover} found and what it cost. */
  public record Discovery(TopologyDatabase database, PacketCounts packets) {}

  private final Map<String, DeviceManager> devices = new LinkedHashMap<>();
  private final Map<PortRef, PortRef> links = new HashMap<>();

  /**
   * @param links pairs of ports wired together
   * @throws IllegalArgumentException naming the value when a device id repeats, or a link names a
   *     device or port that does not exist or a port that has a link already
   */
  public StructuralFabric(List<DeviceDescription> devices, List<List<PortRef>> links) {
    for (DeviceDescription d : devices) {
      if (this.devices.putIfAbsent(d.id(), new DeviceManager(ConfigurationSpace.of(d))) != null) {
        throw new IllegalArgumentException("device id=" + d.id() + " appears twice");
      }
    }
    for (List<PortRef> link : links) {
      if (link.size() != 2) {
        throw new IllegalArgumentException("a link has two ends, got " + link);
      }
      checkEnd(link.get(0));
      checkEnd(link.get(1));
      this.links.put(link.get(0), link.get(1));
      this.links.put(link.get(1), link.get(0));
    }
  }

  private void checkEnd(PortRef end) {
    ConfigurationSpace d = devices.containsKey(end.device()) ? devices.get(end.device()).space() : null;
    if (d == null) {
      throw new IllegalArgumentException("link end " + end + ": no device " + end.device());
    }
    if (end.port() < 0 || end.port() >= d.device().ports().size()) {
      throw new IllegalArgumentException("link end " + end + ": port=" + end.port() + " not in [0,"
          + (d.device().ports().size() - 1) + "]");
    }
    if (links.containsKey(end)) {
      throw new IllegalArgumentException("link end " + end + " has a link already");
    }
  }

  public ConfigurationSpace device(String id) {
    return manager(id).space();
  }

  /** The device manager of device {@code id}. */
  public DeviceManager manager(String id) {
    DeviceManager d = devices.get(id);
    if (d == null) {
      throw new IllegalArgumentException("no device id=" + id + " (devices: " + devices.keySet() + ")");
    }
    return d;
  }

  /** The completion the device at the end of {@code request}'s route gives, from {@code fm}'s device. */
  public Pi4ReadCompletion answer(String fm, Pi4ReadRequest request) {
    Arrival at = follow(fm, request.route());
    if (at.error() != null) {
      return request.answer(ReadResult.failed(at.error()));
    }
    return devices.get(at.device()).onRead(request, at.ingress());
  }

  /**
   * Delivers {@code write} from {@code fm}'s device to the device at the end of its route;
   * {@link WriteOutcome#NO_SUCH_FIELD} when the route goes nowhere (a write has no response to
   * carry an error).
   */
  public WriteOutcome deliver(String fm, Pi4Write write) {
    Arrival at = follow(fm, write.route());
    return at.error() != null ? WriteOutcome.NO_SUCH_FIELD : devices.get(at.device()).onWrite(write);
  }

  /** Where a route ends: the device and the port it came in through (-1: none), or why it goes nowhere. */
  private record Arrival(String device, int ingress, String error) {}

  private Arrival follow(String fm, Route route) {
    String at = device(fm).device().id();
    int ingress = -1;
    for (int i = 0; i < route.hops(); i++) {
      int turn = route.turns().get(i);
      ConfigurationSpace space = devices.get(at).space();
      int ports = space.device().ports().size();
      PortRef out = new PortRef(at, turn);
      PortRef next = links.get(out);
      if (turn >= ports || next == null || !PortDescription.carriesManagement(space.portState(turn))) {
        return new Arrival(null, -1, "turn " + i + " of route " + route + ": port " + out
            + (turn >= ports ? " does not exist" : next == null ? " leads nowhere" : " carries no management packets"));
      }
      at = next.device();
      ingress = next.port();
    }
    return new Arrival(at, ingress, null);
  }

  /**
   * Discovers the fabric from {@code fm}'s device with a {@link DiscoveryWalker}, answering its
   * requests in the order they were sent.
   *
   * @param seen given every packet, request or completion, in the order it travels
   */
  public Discovery discover(String fm, int window, Consumer<ManagementPacket> seen) {
    DiscoveryWalker walker = new DiscoveryWalker(device(fm), 0, window);
    Deque<Pi4ReadRequest> inFlight = new ArrayDeque<>(walker.start());
    inFlight.forEach(seen);
    while (!inFlight.isEmpty()) {
      Pi4ReadCompletion c = answer(fm, inFlight.poll());
      seen.accept(c);
      List<Pi4ReadRequest> next = new ArrayList<>(walker.onCompletion(c));
      next.forEach(seen);
      inFlight.addAll(next);
    }
    return new Discovery(walker.database(), walker.packets());
  }
}

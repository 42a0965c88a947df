package io.rackfabric.host.failover;

import io.rackfabric.host.memory.Plane;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * When the MH takes a compute host as gone: the fabric's ports at the rack's end of both of its
 * cables (its NTB ports, one per plane) reported a fatal error. A CH with one plane left reports
 * its own failure through the other (the data-plane fail-over); with none left it can report
 * nothing and nothing reaches it, which is what the rest of the rack sees of a host that died, so
 * the MH tells the controller the host left (Device Lending: its offers and loans end with it).
 * Decided once per host, at the model time the MH's AER driver handles the second error. A plane
 * once failed stays failed for the host: the data-plane fail-over never fails back (the Ladon
 * prototype's rule, kept by the CHs' route lists), so a CH whose other plane fails later has no
 * path left either. Plain state, stepped by the MH's actor.
 *
 * @see ChPort the ports it watches
 */
public final class HostLossRule {

  /** The port at the rack's end of compute host {@code ch}'s cable on {@code plane}. */
  public record ChPort(int ch, String host, Plane plane) {}

  /** Compute host {@code ch} ({@code host}) is gone: both of its planes' ports failed, the last at {@code at}. */
  public record Lost(int ch, String host, long at) {}

  private final Map<String, ChPort> ports;
  private final long aerInterruptLatencyNs;
  private final Map<Integer, Set<Plane>> failed = new HashMap<>();

  /**
   * @param ports the CHs' NTB ports by the requester ID their AER messages carry
   * @param aerInterruptLatencyNs model ns from an AER message's arrival to its handling
   */
  public HostLossRule(Map<String, ChPort> ports, long aerInterruptLatencyNs) {
    this.ports = Map.copyOf(ports);
    this.aerInterruptLatencyNs = aerInterruptLatencyNs;
  }

  /** Whether {@code source} is one of the CHs' NTB ports. */
  public boolean watches(String source) {
    return ports.containsKey(source);
  }

  /**
   * A fatal error from {@code source} arrived at model {@code arrivedAt}: the host it leaves with
   * no plane, once, handled {@code aer-interrupt-latency} later; empty otherwise.
   */
  public Optional<Lost> fatal(String source, long arrivedAt) {
    ChPort p = ports.get(source);
    if (p == null) {
      return Optional.empty();
    }
    Set<Plane> planes = failed.computeIfAbsent(p.ch(), ch -> EnumSet.noneOf(Plane.class));
    boolean wasAlive = planes.size() < Plane.values().length;
    planes.add(p.plane());
    if (wasAlive && planes.size() == Plane.values().length) {
      return Optional.of(new Lost(p.ch(), p.host(), arrivedAt + aerInterruptLatencyNs));
    }
    return Optional.empty();
  }
}

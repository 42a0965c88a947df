package io.rackfabric.fabric.management;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A new secondary after a take-over (AS-FM section 4 elects one primary and one secondary; once the
 * secondary has taken over there is none left to watch it). The rule, and why:
 *
 * <ul>
 *   <li>Once the new primary serves, it reads the candidate register (+04h of the spanning-tree
 *       capability) of every endpoint in its database but itself and the dead primary: one PI-4
 *       read each. The election's flood kept only the best two claims at every device, so no device
 *       holds the others; the register is where a device says whether it competes, and how strongly.
 *   <li>It appoints the best candidate it read, by the election's own order (priority, then serial,
 *       lower first), with one PI-4 write of the pair (itself primary, the appointee secondary) to
 *       the appointee's spanning-tree capability. The appointee that reads its own claim as the
 *       second becomes the secondary; heartbeats and a full copy of the database follow.
 * </ul>
 *
 * The outcome depends only on the database and the registers read, never on the order the
 * completions came back in: the same candidate as a new election among the survivors would give,
 * without flooding the fabric again. A device whose read failed is taken for no candidate. Plain,
 * no clock: the fabric manager's driver issues the reads and gives it what came back.
 */
public final class SecondaryAppointment {

  private final ElectionClaim own;
  private final long dead;
  /** The endpoints to read, in the database's order: serial to route. */
  private final Map<Long, Route> toRead = new LinkedHashMap<>();
  private final Map<Long, Integer> priorities = new LinkedHashMap<>();
  private boolean begun;
  private boolean finished;

  /**
   * @param own the new primary's own claim (it appoints the pair it heads)
   * @param dead the dead primary's serial (0: none known), never read nor appointed
   */
  public SecondaryAppointment(ElectionClaim own, long dead) {
    this.own = own;
    this.dead = dead;
  }

  /** The endpoints of {@code database} to read, with their routes: every endpoint reached but itself and the dead. */
  public Map<Long, Route> begin(TopologyDatabase database) {
    if (begun) {
      throw new IllegalStateException("the appointment has begun already");
    }
    begun = true;
    for (TopologyDatabase.Device d : database.devices()) {
      if (d.type() == DeviceType.ENDPOINT && d.route().hops() > 0 && d.serial() != dead && d.serial() != own.serial()) {
        toRead.put(d.serial(), d.route());
      }
    }
    return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(toRead));
  }

  /** The candidate register of device {@code serial} as read. */
  public void read(long serial, int register) {
    if (toRead.containsKey(serial)) {
      priorities.put(serial, SpanningTreeCapability.candidatePriority(register));
    }
  }

  /** Whether its reads are out and it has not chosen yet. */
  public boolean reading() {
    return begun && !finished;
  }

  /** Chooses the best candidate read (empty: none competes); it is finished from then on. */
  public Optional<ElectionClaim> choose() {
    finished = true;
    List<SpanningTreeCapability.Claim> claims = new ArrayList<>();
    priorities.forEach((serial, priority) -> {
      if (priority >= 0) {
        claims.add(new SpanningTreeCapability.Claim(priority, serial));
      }
    });
    return claims.stream().min(SpanningTreeCapability.Claim.ORDER).map(ElectionClaim::of);
  }

  /** The write appointing {@code secondary}, along {@code route} to it. */
  public Pi4Write appointment(ElectionClaim secondary, Route route, int trafficClass) {
    return new Pi4Write(route, trafficClass, 0, SpanningTreeCapability.OFFSET + 4L * SpanningTreeCapability.PRIMARY,
        SpanningTreeCapability.appointment(own.claim(), secondary.claim()));
  }

  /** Endpoints read. */
  public int devicesRead() {
    return toRead.size();
  }

  /** Of those, the candidates found (their register said they compete). */
  public long candidatesFound() {
    return priorities.values().stream().filter(p -> p >= 0).count();
  }
}

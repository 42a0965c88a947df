package io.rackfabric.fabric.control;

import akka.actor.Address;
import akka.actor.typed.ActorRef;
import java.util.Optional;
import java.util.Set;

/**
 * Who may inject faults into a component or reconfigure it (take its link down, corrupt its TLPs,
 * hold it at a model time, change its IOMMU): the run's driver, and software on the component's
 * own node; an IOMMU's pages also the management hosts' nodes, whose software opens and closes
 * them ({@link #acceptsConfiguration}). Akka Typed messages carry no sender, so these messages carry the sending side's
 * {@link ActorRef} (their {@code replyTo}, or an {@code origin}), and the decision is made from
 * that ref's address. A cluster member that is neither (any program that reached a node's port
 * and joined) is refused: membership alone is not authority over the rack.
 *
 * <p>Immutable; {@link ControlOrigins} holds the one a node's components consult.
 */
public final class ControlOrigin {

  private static final ControlOrigin LOCAL_ONLY = new ControlOrigin(null, null);

  private final Address self;
  private final Address driver;
  private final Set<Address> management;

  /**
   * @param self this node's own address (a ref to a local actor may still carry it), or null
   * @param driver the run's driver, or null when none is known: then only this node is accepted
   */
  public ControlOrigin(Address self, Address driver) {
    this(self, driver, Set.of());
  }

  /** @param management the nodes running the rack's management hosts */
  public ControlOrigin(Address self, Address driver, Set<Address> management) {
    this.self = self;
    this.driver = driver;
    this.management = Set.copyOf(management);
  }

  /** Accepts this node only: a component created without a driver address. */
  public static ControlOrigin localOnly() {
    return LOCAL_ONLY;
  }

  /** The same node, now knowing the run's driver. */
  public ControlOrigin withDriver(Address driver) {
    return new ControlOrigin(self, driver, management);
  }

  /** The same, knowing one more node that runs a management host. */
  public ControlOrigin withManagement(Address node) {
    java.util.Set<Address> more = new java.util.HashSet<>(management);
    more.add(node);
    return new ControlOrigin(self, driver, more);
  }

  public Optional<Address> driver() {
    return Optional.ofNullable(driver);
  }

  /** Whether a message whose sending side is {@code origin} may be applied; a missing origin may not. */
  public boolean accepts(ActorRef<?> origin) {
    return origin != null && accepts(origin.path().address());
  }

  public boolean accepts(Address origin) {
    if (origin == null) {
      return false;
    }
    return origin.hasLocalScope() || origin.equals(self) || origin.equals(driver);
  }

  /**
   * Whether an IOMMU change from {@code origin} may be applied: what {@link #accepts} accepts, and
   * the management hosts' nodes.
   */
  public boolean acceptsConfiguration(ActorRef<?> origin) {
    return accepts(origin) || origin != null && management.contains(origin.path().address());
  }

  /** The address to name in a log line about {@code origin}. */
  public static String describe(ActorRef<?> origin) {
    return origin == null ? "no origin" : origin.path().address().toString();
  }

  @Override
  public String toString() {
    return "ControlOrigin[self " + (self == null ? "local" : self) + ", driver "
        + (driver == null ? "none" : driver) + ", management " + management + "]";
  }
}

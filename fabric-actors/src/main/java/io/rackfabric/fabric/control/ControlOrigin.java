package io.rackfabric.fabric.control;

import akka.actor.Address;
import akka.actor.typed.ActorRef;
import java.util.Optional;

/**
 * Who may inject faults into a component or reconfigure it (take its link down, corrupt its TLPs,
 * hold it at a model time, change its IOMMU): the run's driver, and software on the component's
 * own node. Akka Typed messages carry no sender, so these messages carry the sending side's
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

  /**
   * @param self this node's own address (a ref to a local actor may still carry it), or null
   * @param driver the run's driver, or null when none is known: then only this node is accepted
   */
  public ControlOrigin(Address self, Address driver) {
    this.self = self;
    this.driver = driver;
  }

  /** Accepts this node only: a component created without a driver address. */
  public static ControlOrigin localOnly() {
    return LOCAL_ONLY;
  }

  /** The same node, now knowing the run's driver. */
  public ControlOrigin withDriver(Address driver) {
    return new ControlOrigin(self, driver);
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

  /** The address to name in a log line about {@code origin}. */
  public static String describe(ActorRef<?> origin) {
    return origin == null ? "no origin" : origin.path().address().toString();
  }

  @Override
  public String toString() {
    return "ControlOrigin[self " + (self == null ? "local" : self) + ", driver "
        + (driver == null ? "none" : driver) + "]";
  }
}

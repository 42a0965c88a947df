package io.rackfabric.fabric.control;

import akka.actor.Address;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Extension;
import akka.actor.typed.ExtensionId;
import akka.actor.typed.javadsl.ActorContext;

/**
 * The {@link ControlOrigin} of one actor system, shared by every component on it. It starts
 * accepting this node only; the node learns the run's driver when it joins the cluster ({@link
 * #useDriver}), so a component never needs the driver's address at creation, and one on a node
 * that never learns it (a single JVM, a test) accepts only what comes from its own node.
 */
public final class ControlOrigins implements Extension {

  /** The extension's id: {@code ControlOrigins.get(system)}. */
  public static final class Id extends ExtensionId<ControlOrigins> {
    private static final Id INSTANCE = new Id();

    private Id() {}

    @Override
    public ControlOrigins createExtension(ActorSystem<?> system) {
      return new ControlOrigins(system.address());
    }
  }

  private volatile ControlOrigin current;

  private ControlOrigins(Address self) {
    this.current = new ControlOrigin(self, null);
  }

  public static ControlOrigins get(ActorSystem<?> system) {
    return Id.INSTANCE.apply(system);
  }

  /** From now on the member at {@code driver} is the run's driver, whose messages are accepted. */
  public synchronized void useDriver(Address driver) {
    current = current.withDriver(driver);
  }

  /** From now on the node at {@code node} runs a management host: its IOMMU changes are accepted. */
  public synchronized void useManagement(Address node) {
    current = current.withManagement(node);
  }

  public ControlOrigin current() {
    return current;
  }

  public boolean accepts(ActorRef<?> origin) {
    return current.accepts(origin);
  }

  /**
   * Whether component {@code id} may apply {@code msg}, whose sending side is {@code origin};
   * logs a refused one at WARN with the sender's address. One call at the top of each handler of
   * a fault-injection or configuration message.
   */
  public static boolean admits(ActorContext<?> context, String id, Object msg, ActorRef<?> origin) {
    return admits(context, id, msg, origin, get(context.getSystem()).accepts(origin));
  }

  /** {@link #admits} for an IOMMU change: the management hosts' nodes may send it too. */
  public static boolean admitsConfiguration(ActorContext<?> context, String id, Object msg, ActorRef<?> origin) {
    return admits(context, id, msg, origin, get(context.getSystem()).current().acceptsConfiguration(origin));
  }

  private static boolean admits(ActorContext<?> context, String id, Object msg, ActorRef<?> origin, boolean ok) {
    if (ok) {
      return true;
    }
    context.getLog().warn("Port [{}] dropped {} from [{}]: not the run's driver or this node", id,
        msg.getClass().getSimpleName(), ControlOrigin.describe(origin));
    return false;
  }
}

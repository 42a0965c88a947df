package io.rackfabric.cluster.node;

import akka.actor.typed.receptionist.ServiceKey;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.switchchip.SwitchChip;

/** Receptionist keys under which nodes register the components they run, by component id. */
public final class ComponentKeys {

  private ComponentKeys() {}

  public static ServiceKey<MemoryEndpoint.Command> endpoint(String id) {
    return ServiceKey.create(MemoryEndpoint.Command.class, "rack-endpoint:" + id);
  }

  public static ServiceKey<SwitchChip.Command> switchChip(String id) {
    return ServiceKey.create(SwitchChip.Command.class, "rack-switch:" + id);
  }
}

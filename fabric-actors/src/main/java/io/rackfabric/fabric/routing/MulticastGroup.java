package io.rackfabric.fabric.routing;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.wire.WireMessage;
import java.util.List;

/** A multicast window: a posted write into it is replicated to every member port. */
public record MulticastGroup(int group, AddressRange window, List<Integer> memberPorts)
    implements WireMessage {

  public MulticastGroup {
    memberPorts = List.copyOf(memberPorts);
  }
}

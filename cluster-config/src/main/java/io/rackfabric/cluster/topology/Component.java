package io.rackfabric.cluster.topology;

/**
 * Something the topology places on a cluster node and wires with links: a switch chip or a memory
 * endpoint. Ids share one namespace so that a link end or a {@code --from} flag names exactly one.
 */
public sealed interface Component permits SwitchSpec, EndpointSpec {

  String id();

  /** The cluster node (a {@link NodeSpec#name()}) that runs this component's actors. */
  String node();
}

package io.rackfabric.host.nic;

/**
 * One sequence-number stream, seen from one end: the node at the other end, this end's port and
 * the other end's port. Under GM all ports to a node share one stream per connection (ports -1);
 * under FTGM each port pair has its own, so that the one process owning a receiving port can keep
 * (and restore) its ACK number without synchronizing with others (FTGM section 4.1, Figure 6).
 */
public record StreamKey(String node, int localPort, int remotePort) {

  public static StreamKey of(McpMode mode, String node, int localPort, int remotePort) {
    return mode == McpMode.GM ? new StreamKey(node, -1, -1) : new StreamKey(node, localPort, remotePort);
  }
}

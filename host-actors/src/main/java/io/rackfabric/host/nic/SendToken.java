package io.rackfabric.host.nic;

/**
 * A send token (FTGM section 3.1): where the message is in host memory, its size, and where it goes.
 *
 * @param port the sending port
 * @param remoteNode destination interface
 * @param remotePort destination port
 * @param seq the stream sequence number the host gave it (FTGM), or -1 (GM: the firmware numbers)
 * @param payload the message's content, as the emulation carries it (an application message id)
 * @param length message bytes
 * @param buffer host address of the send buffer
 */
public record SendToken(int port, String remoteNode, int remotePort, long seq, long payload, int length,
    long buffer) {

  /** The stream this token belongs to, seen from its sender. */
  public StreamKey stream(McpMode mode) {
    return StreamKey.of(mode, remoteNode, port, remotePort);
  }

  public SendToken withSeq(long s) {
    return new SendToken(port, remoteNode, remotePort, s, payload, length, buffer);
  }
}

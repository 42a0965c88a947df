package io.rackfabric.host.messaging;

/**
 * What host software can do through its root complex: posted writes and non-posted reads into the
 * global memory space at a model time, and plain stores into its own memory. The datagram service
 * implements it over its root {@code MemoryEndpoint}; tests implement it over a simulated rack.
 */
public interface HostFabric {

  /** A posted write issued at model time {@code at}; nothing comes back, and it may be lost. */
  void write(long address, byte[] data, long at);

  /**
   * A read issued at model time {@code at}. {@code done} is called later, at most once, never from
   * inside this call: a read whose request or completion is lost is never answered here, which is
   * what the caller's completion timeout is for.
   */
  void read(long address, int length, long at, ReadDone done);

  /** The host's own CPU storing into its local memory, which peers then read through the fabric. */
  void store(long address, byte[] data);

  /** The answer to {@link #read}, with the model time it arrived. */
  interface ReadDone {
    void completed(byte[] data, long at);

    void failed(String reason, long at);
  }
}

package io.rackfabric.host.messaging;

/**
 * A host's window into the global memory space, as the messaging protocol sees it: the only way it
 * touches another host's memory. Implemented over byte arrays in tests and over the fabric's actors
 * later.
 */
public interface MemoryPort {

  /**
   * A posted memory write: no completion comes back, and it may be lost (or torn) in transit, for
   * example when the link it is queued on goes down. Writes from one port are not reordered.
   */
  void write(long address, byte[] data);

  /**
   * A non-posted memory read. The callback is answered exactly once, later: with the bytes, or with
   * a failure (completion timeout, unsupported request, the link went down).
   */
  void read(long address, int length, ReadCallback callback);

  /** The answer to {@link #read}. */
  interface ReadCallback {
    void completed(byte[] data);

    void failed(String reason);
  }
}

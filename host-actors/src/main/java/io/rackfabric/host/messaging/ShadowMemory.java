package io.rackfabric.host.messaging;

import io.rackfabric.fabric.endpoint.SparseMemory;
import java.util.Objects;

/**
 * The host software's view of its own memory region: what peers wrote there (as the root
 * endpoint reports each write that lands) and what the software stored itself. Its own stores
 * also go to the endpoint, where peers' reads find them. Every word of the region has one writer
 * (see {@link QueueLayout}), so the copy and the endpoint's memory agree word by word.
 */
final class ShadowMemory implements LocalMemory {

  private final SparseMemory memory = new SparseMemory();
  private final HostFabric fabric;

  ShadowMemory(HostFabric fabric) {
    this.fabric = Objects.requireNonNull(fabric, "fabric");
  }

  @Override
  public byte[] read(long address, int length) {
    return memory.read(address, length);
  }

  @Override
  public void write(long address, byte[] data) {
    memory.write(address, data);
    fabric.store(address, data.clone());
  }

  /** A peer's write landed in the endpoint's memory. */
  void landed(long address, byte[] data) {
    memory.write(address, data);
  }
}

package io.rackfabric.fabric.endpoint;

/**
 * What a target's hardware checks on every inbound memory request before serving it, by the
 * requester ID the request arrives with (after any NTB proxying): the IOMMU of Ladon section 3.4 and
 * 4.1, implemented outside fabric-actors (host-actors' {@code IommuAccessCheck}).
 *
 * <p>A check belongs to exactly one {@link MemoryEndpoint} actor: it is handed over at {@code
 * create} and afterwards changed only by {@link AccessCheckChange}s the endpoint applies on its own
 * thread, so an implementation may be mutable and need not be thread-safe. {@link #decide} runs
 * once per TLP and should not allocate.
 */
public interface InboundAccessCheck {

  enum Decision {
    ALLOW,
    DENY
  }

  /**
   * Whether {@code requester} may read ({@code write} false) or write {@code length} bytes (at
   * least 1) from {@code address} of this endpoint.
   */
  Decision decide(int requester, long address, int length, boolean write);

  /** The default: no IOMMU, every inbound request is served. */
  static InboundAccessCheck allowAll() {
    return AllowAll.INSTANCE;
  }

  /** The check of an endpoint without an IOMMU. */
  enum AllowAll implements InboundAccessCheck {
    INSTANCE;

    @Override
    public Decision decide(int requester, long address, int length, boolean write) {
      return Decision.ALLOW;
    }

    @Override
    public String toString() {
      return "allow all";
    }
  }
}

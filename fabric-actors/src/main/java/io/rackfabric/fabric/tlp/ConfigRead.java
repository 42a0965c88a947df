package io.rackfabric.fabric.tlp;

/**
 * Configuration read of one dword register. Type 0 addresses a function on the bus the request is
 * on; type 1 is forwarded by bridges until it reaches the bridge whose secondary bus is the target
 * bus, which turns it into type 0.
 */
public record ConfigRead(int requester, int tag, int target, int type, int register, long originAt)
    implements Tlp {

  public ConfigRead {
    Tlps.checkConfig(type, register);
  }

  public ConfigRead asType0() {
    return new ConfigRead(requester, tag, target, 0, register, originAt);
  }

  @Override
  public int tc() {
    return 0; // configuration requests always use TC0
  }

  @Override
  public long seq() {
    return 0;
  }

  @Override
  public TlpClass tlpClass() {
    return TlpClass.NON_POSTED;
  }

  @Override
  public int payloadBytes() {
    return 0;
  }

  @Override
  public int headerBytes() {
    return 12;
  }
}

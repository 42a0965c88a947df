package io.rackfabric.fabric.tlp;

/** Configuration write of one dword register; non-posted, answered by a completion. */
public record ConfigWrite(
    int requester, int tag, int target, int type, int register, int value, long originAt)
    implements Tlp {

  public ConfigWrite {
    Tlps.checkConfig(type, register);
  }

  public ConfigWrite asType0() {
    return new ConfigWrite(requester, tag, target, 0, register, value, originAt);
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
    return 4;
  }

  @Override
  public int headerBytes() {
    return 12;
  }
}

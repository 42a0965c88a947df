package io.rackfabric.fabric.tlp;

/** Non-posted memory read of {@code length} bytes; answered by one or more completions. */
public record MemRead(
    int requester, int tag, int tc, long address, int length, long originAt, long seq)
    implements Tlp {

  public MemRead {
    Tlps.checkLength(length);
  }

  public MemRead withAddress(long newAddress) {
    return new MemRead(requester, tag, tc, newAddress, length, originAt, seq);
  }

  public MemRead withRequester(int newRequester) {
    return new MemRead(newRequester, tag, tc, address, length, originAt, seq);
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
    return Tlps.memHeaderBytes(address);
  }
}

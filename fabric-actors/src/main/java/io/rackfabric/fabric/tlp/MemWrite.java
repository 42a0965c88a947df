package io.rackfabric.fabric.tlp;

/**
 * Posted memory write. {@code data} is null for bulk traffic that carries only a length; an MSI is
 * a memory write to the MSI address.
 */
public record MemWrite(
    int requester, int tag, int tc, long address, int length, byte[] data, long originAt, long seq)
    implements Tlp {

  public MemWrite {
    Tlps.checkLength(length);
    if (data != null && data.length != length) {
      throw new IllegalArgumentException("data.length=" + data.length + " != length=" + length);
    }
  }

  public MemWrite withAddress(long newAddress) {
    return new MemWrite(requester, tag, tc, newAddress, length, data, originAt, seq);
  }

  public MemWrite withRequester(int newRequester) {
    return new MemWrite(newRequester, tag, tc, address, length, data, originAt, seq);
  }

  @Override
  public TlpClass tlpClass() {
    return TlpClass.POSTED;
  }

  @Override
  public int payloadBytes() {
    return length;
  }

  @Override
  public int headerBytes() {
    return Tlps.memHeaderBytes(address);
  }
}

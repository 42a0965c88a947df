package io.rackfabric.fabric.tlp;

/**
 * A completion, routed by ID to {@code requester}. A read may be answered by several completions:
 * {@code byteCount} is what remains of the request including this one, so the last completion has
 * {@code byteCount == length}. {@code offset} is the byte offset of this chunk within the request
 * (the emulator's stand-in for the lower-address field).
 */
public record Completion(
    int completer,
    int requester,
    int tag,
    int tc,
    CompletionStatus status,
    int byteCount,
    int offset,
    int length,
    byte[] data,
    long originAt,
    long seq)
    implements Tlp {

  public Completion {
    if (length < 0 || length > Tlps.MAX_LENGTH) {
      throw new IllegalArgumentException("length=" + length + " not in [0," + Tlps.MAX_LENGTH + "]");
    }
    if (data != null && data.length != length) {
      throw new IllegalArgumentException("data.length=" + data.length + " != length=" + length);
    }
  }

  /** A completion without data that ends the request with the given status. */
  public static Completion error(int completer, Tlp request, CompletionStatus status, long at) {
    return new Completion(
        completer, request.requester(), request.tag(), request.tc(), status, 0, 0, 0, null, at,
        request.seq());
  }

  public Completion withRequester(int newRequester) {
    return new Completion(
        completer, newRequester, tag, tc, status, byteCount, offset, length, data, originAt, seq);
  }

  public boolean isLast() {
    return status != CompletionStatus.SUCCESSFUL || byteCount <= length;
  }

  @Override
  public TlpClass tlpClass() {
    return TlpClass.COMPLETION;
  }

  @Override
  public int payloadBytes() {
    return length;
  }

  @Override
  public int headerBytes() {
    return 12;
  }
}

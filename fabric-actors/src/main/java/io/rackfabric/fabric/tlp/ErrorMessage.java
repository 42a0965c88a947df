package io.rackfabric.fabric.tlp;

/**
 * An AER error message (ERR_COR, ERR_NONFATAL, ERR_FATAL), routed implicitly to the root complex.
 * {@code requester} is the reporting function; {@code cause} says what it detected.
 */
public record ErrorMessage(int requester, Severity severity, Cause cause, long originAt)
    implements Tlp {

  /** AER message codes. */
  public enum Severity {
    CORRECTABLE,
    NONFATAL,
    FATAL
  }

  /** What the reporting port detected. */
  public enum Cause {
    SURPRISE_DOWN,
    DLLP_TIMEOUT,
    RECEIVER_OVERFLOW,
    UNSUPPORTED_REQUEST,
    BAD_TLP,
    /** REPLAY_NUM rolled over: replays of a TLP kept failing and the link went down. */
    REPLAY_ROLLOVER
  }

  @Override
  public int tag() {
    return 0;
  }

  @Override
  public int tc() {
    return 0;
  }

  @Override
  public long seq() {
    return 0;
  }

  @Override
  public TlpClass tlpClass() {
    return TlpClass.POSTED;
  }

  @Override
  public int payloadBytes() {
    return 0;
  }

  @Override
  public int headerBytes() {
    return 16;
  }
}

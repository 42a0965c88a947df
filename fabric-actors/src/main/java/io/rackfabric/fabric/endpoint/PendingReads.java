package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;

/**
 * A requester's outstanding reads by tag, and the reassembly of their completions (a read may be
 * answered by several). 256 tags, as with PCIe's 8-bit tag field.
 */
public final class PendingReads<T> {

  public static final int TAGS = 256;

  /** A finished read: its data (null on error), final status and when it completed. */
  public record Done<T>(T context, byte[] data, CompletionStatus status, long originAt, long completedAt) {}

  private static final class Slot<T> {
    T context;
    /** The requester ID the read went out under, or -1 for the endpoint's own. */
    int requester = -1;
    byte[] buffer;
    int received;
    long originAt;
  }

  @SuppressWarnings("unchecked")
  private final Slot<T>[] slots = new Slot[TAGS];
  private int next;
  private int outstanding;

  public boolean hasFreeTag() {
    return outstanding < TAGS;
  }

  public int outstanding() {
    return outstanding;
  }

  /** Takes a free tag for a read of {@code length} bytes; -1 when all are in use. */
  public int start(T context, int length, long originAt) {
    return start(context, length, originAt, -1);
  }

  /**
   * {@link #start(Object, int, long)} for a read issued under another requester ID than the
   * endpoint's own (one of the functions behind it); only completions for that ID complete it.
   */
  public int start(T context, int length, long originAt, int requester) {
    if (!hasFreeTag()) {
      return -1;
    }
    while (slots[next] != null) {
      next = (next + 1) % TAGS;
    }
    Slot<T> s = new Slot<>();
    s.context = context;
    s.buffer = new byte[length];
    s.originAt = originAt;
    s.requester = requester;
    slots[next] = s;
    outstanding++;
    int tag = next;
    next = (next + 1) % TAGS;
    return tag;
  }

  /** Whether a read under {@code requester} (not the endpoint's own ID) is outstanding on {@code tag}. */
  public boolean expects(int tag, int requester) {
    Slot<T> s = tag >= 0 && tag < TAGS ? slots[tag] : null;
    return s != null && s.requester == requester;
  }

  /** Adds a completion; returns the finished read when it was the last one, else null. */
  public Done<T> complete(Completion c, long arrival) {
    Slot<T> s = c.tag() >= 0 && c.tag() < TAGS ? slots[c.tag()] : null;
    if (s == null || (s.requester >= 0 && s.requester != c.requester())) {
      return null; // unexpected completion: no such outstanding request
    }
    if (c.status() != CompletionStatus.SUCCESSFUL) {
      release(c.tag());
      return new Done<>(s.context, null, c.status(), s.originAt, arrival);
    }
    if (c.data() != null && c.offset() + c.length() <= s.buffer.length) {
      System.arraycopy(c.data(), 0, s.buffer, c.offset(), c.length());
    }
    s.received += c.length();
    if (s.received >= s.buffer.length) {
      release(c.tag());
      return new Done<>(s.context, s.buffer, CompletionStatus.SUCCESSFUL, s.originAt, arrival);
    }
    return null;
  }

  /** What asked for the request outstanding on {@code tag}, or null when none is. */
  public T context(int tag) {
    Slot<T> s = tag >= 0 && tag < TAGS ? slots[tag] : null;
    return s == null ? null : s.context;
  }

  /** Gives up an outstanding request whose TLP could not be sent, freeing its tag. */
  public void cancel(int tag) {
    if (tag >= 0 && tag < TAGS && slots[tag] != null) {
      release(tag);
    }
  }

  private void release(int tag) {
    slots[tag] = null;
    outstanding--;
  }
}

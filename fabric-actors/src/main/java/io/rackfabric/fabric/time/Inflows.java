package io.rackfabric.fabric.time;

import java.util.Arrays;

/**
 * What was sent to each component (by graph index), as its senders reported, and how much of it
 * came from senders that died unannounced: the arithmetic of the books' rule that nothing is in
 * flight when every running component has received what was sent to it.
 */
final class Inflows {

  /** Messages sent to each component, as reported by the senders. */
  private long[] sent = new long[0];
  /** Messages sent to each component by senders that died unannounced, as they last reported. */
  private long[] fromDead = new long[0];
  /** Senders of each component that died unannounced: above 0, it is balanced by at-least. */
  private int[] deadSenders = new int[0];

  /** Makes room for components up to graph index {@code size - 1}. */
  void ensure(int size) {
    if (sent.length < size) {
      int n = Math.max(size, 2 * sent.length);
      sent = Arrays.copyOf(sent, n);
      fromDead = Arrays.copyOf(fromDead, n);
      deadSenders = Arrays.copyOf(deadSenders, n);
    }
  }

  void add(int to, long count) {
    sent[to] += count;
  }

  /** Everything reported sent to component {@code to} since the start. */
  long sentTo(int to) {
    return sent[to];
  }

  /** A sender of {@code to} that had reported {@code count} sent to it died unannounced. */
  void senderDied(int to, long count) {
    fromDead[to] += count;
    deadSenders[to]++;
  }

  /** A dead sender's count is exact after all (a run driver retired it): undoes {@link #senderDied}. */
  void senderRetired(int to, long count) {
    fromDead[to] -= count;
    deadSenders[to]--;
  }

  /**
   * Whether component {@code to}, having received {@code received} and not counting the
   * {@code before} sent to an earlier incarnation, holds what was sent to it: exactly, or at least
   * what the live senders account for when a sender died unannounced (its last sends may be lost).
   */
  boolean balanced(int to, long received, long before) {
    long expected = sent[to] - before;
    return deadSenders[to] > 0 ? received >= expected - fromDead[to] : received == expected;
  }
}

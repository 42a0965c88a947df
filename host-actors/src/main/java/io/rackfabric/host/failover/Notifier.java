package io.rackfabric.host.failover;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The MH's side of a route-change notification round, as a state machine driven by model times:
 * it says which writes to issue and when, and learns from each CH's acknowledgement. Unicast
 * notifies the CHs one by one, each after the previous one acknowledged (Ladon section 5.3: "one by
 * one"); multicast sends one write that reaches them all and waits for every acknowledgement. A CH
 * the MH gave up on ({@link #abandon}) ends its wait as an acknowledgement would, so the round
 * still reaches every other CH.
 */
public final class Notifier {

  /** A notification write to issue: to CH {@code ch}, or to every CH at once when ch is 0. */
  public record Send(int ch, long at) {}

  public static final int EVERY_HOST = 0;

  private final NotificationMode mode;
  private final List<Integer> order;
  private final Set<Integer> waiting = new TreeSet<>();
  private final Set<Integer> abandoned = new TreeSet<>();
  private int next;
  private long completedAt = -1;

  /** @param hosts the CHs to notify, in the order unicast notifies them */
  public Notifier(NotificationMode mode, List<Integer> hosts) {
    if (hosts.isEmpty()) {
      throw new IllegalArgumentException("no compute hosts to notify");
    }
    this.mode = mode;
    this.order = List.copyOf(hosts);
  }

  /** The round starts at {@code at}: the first writes. */
  public List<Send> start(long at) {
    if (mode == NotificationMode.MULTICAST) {
      waiting.addAll(order);
      next = order.size();
      return List.of(new Send(EVERY_HOST, at));
    }
    return sendNext(at);
  }

  /** CH {@code ch}'s acknowledgement was seen at {@code at}: the writes that follow, if any. */
  public List<Send> acknowledged(int ch, long at) {
    if (!waiting.remove(ch)) {
      return List.of(); // a late or repeated acknowledgement
    }
    return released(at);
  }

  /**
   * The MH stops waiting for CH {@code ch} at {@code at} (it never acknowledged): the writes that
   * follow, if any, as after an acknowledgement. Nothing happens for a CH not awaited.
   */
  public List<Send> abandon(int ch, long at) {
    if (!waiting.remove(ch)) {
      return List.of();
    }
    abandoned.add(ch);
    return released(at);
  }

  private List<Send> released(long at) {
    if (!waiting.isEmpty()) {
      return List.of();
    }
    if (next < order.size()) {
      return sendNext(at);
    }
    completedAt = at;
    return List.of();
  }

  private List<Send> sendNext(long at) {
    int ch = order.get(next++);
    waiting.add(ch);
    return new ArrayList<>(List.of(new Send(ch, at)));
  }

  public boolean completed() {
    return completedAt >= 0;
  }

  /** Model time the last wait ended (an acknowledgement seen, or a CH abandoned); -1 while the round runs. */
  public long completedAt() {
    return completedAt;
  }

  public NotificationMode mode() {
    return mode;
  }

  /** CHs whose acknowledgement is awaited now, in ascending order. */
  public Set<Integer> waiting() {
    return Collections.unmodifiableSet(new TreeSet<>(waiting));
  }

  /** CHs the MH gave up on, in ascending order: the round failed for them. */
  public Set<Integer> abandoned() {
    return Collections.unmodifiableSet(new TreeSet<>(abandoned));
  }
}

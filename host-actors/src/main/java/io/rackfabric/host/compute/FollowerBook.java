package io.rackfabric.host.compute;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Who follows a compute host's route changes ({@link ComputeHost.FollowRoutes}) and how many
 * changes each has yet to act on: the host holds its endpoint's call until none is left. A
 * follower that stops takes its count with it. Not thread-safe: one owner.
 *
 * @param <K> a follower's identity (its actor)
 * @param <R> where its changes go
 */
final class FollowerBook<K, R> {

  private final Map<K, R> followers = new LinkedHashMap<>();
  private final Map<K, Integer> pending = new LinkedHashMap<>();

  /** Adds a follower; false when it already follows. */
  boolean add(K follower, R to) {
    return followers.putIfAbsent(follower, to) == null;
  }

  /** Tells every follower of one change (in the order they came) and counts it pending for each. */
  void announce(Consumer<R> tell) {
    followers.forEach((follower, to) -> {
      tell.accept(to);
      pending.merge(follower, 1, Integer::sum);
    });
  }

  /** {@code follower} acted on one change. */
  void followed(K follower) {
    pending.computeIfPresent(follower, (f, n) -> n > 1 ? n - 1 : null);
  }

  /** {@code follower} is gone; returns the changes it had not followed. */
  int remove(K follower) {
    followers.remove(follower);
    Integer left = pending.remove(follower);
    return left == null ? 0 : left;
  }

  /** Changes told and not yet followed, over every follower. */
  int pending() {
    return pending.values().stream().mapToInt(Integer::intValue).sum();
  }
}

package io.rackfabric.host.compute;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Who hears a compute host's route changes ({@link ComputeHost}): its watchers ({@link
 * ComputeHost.SubscribeRoutes}), told and not waited for, and its followers ({@link
 * ComputeHost.FollowRoutes}, a {@link FollowerBook}), for whom the host holds one call of its
 * endpoint until each has acted on every change told. Not thread-safe: one owner.
 *
 * @param <K> a follower's identity (its actor)
 * @param <R> where changes go
 * @param <C> the call held
 */
final class RouteAudience<K, R, C> {

  private final List<R> watchers = new ArrayList<>();
  private final FollowerBook<K, R> followers = new FollowerBook<>();
  /** A call answered once every follower has acted on the changes it caused. */
  private C held;

  void watch(R to) {
    watchers.add(to);
  }

  /** Adds a follower; false when it already follows. */
  boolean follow(K follower, R to) {
    return followers.add(follower, to);
  }

  /** Tells every watcher, then every follower, of one change. */
  void announce(Consumer<R> tell) {
    watchers.forEach(tell);
    followers.announce(tell);
  }

  /** Holds {@code call} when changes are not yet followed and none is held; true when held. */
  boolean hold(C call) {
    if (followers.pending() > 0 && held == null) {
      held = call;
      return true;
    }
    return false;
  }

  /** {@code follower} acted on one change; returns the held call to answer now, or null. */
  C followed(K follower) {
    followers.followed(follower);
    return release();
  }

  /** {@code follower} stopped; returns the changes it had not followed. */
  int stopped(K follower) {
    return followers.remove(follower);
  }

  /** The held call to answer now that every change is followed, or null. */
  C release() {
    if (followers.pending() == 0 && held != null) {
      C call = held;
      held = null;
      return call;
    }
    return null;
  }
}

package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.endpoint.GuestCall;
import java.util.ArrayList;
import java.util.List;

/**
 * A borrower's driver's side of a loan the controller ended ({@link ControlPlaneHost.LoanEnded}):
 * who follows such ends, and the notice's call held until every follower has answered, so that
 * what they do enters the model at the notice's time. Not thread-safe: the driver's actor's own.
 */
final class LoanEnds {

  private final List<ActorRef<ControlPlaneClient.LoanEnd>> followers = new ArrayList<>();
  private final List<GuestCall> held = new ArrayList<>();
  private int pending;

  void follow(ActorRef<ControlPlaneClient.LoanEnd> follower) {
    followers.add(follower);
  }

  /**
   * Tells every follower of {@code ended}, noticed at model {@code at}; true when {@code call} is
   * held for their answers (to {@code replyTo}), false when none follows (answer it now).
   */
  boolean noticed(ControlPlaneHost.LoanEnded ended, long at, GuestCall call,
      ActorRef<ControlPlaneClient.LoanEndHandled> replyTo) {
    if (followers.isEmpty()) {
      return false;
    }
    followers.forEach(f -> f.tell(new ControlPlaneClient.LoanEnd(ended, at, replyTo)));
    pending += followers.size();
    held.add(call);
    return true;
  }

  /** A follower answered; the calls to answer now (all held ones once none is pending). */
  List<GuestCall> handled() {
    if (pending == 0 || --pending > 0) {
      return List.of();
    }
    List<GuestCall> out = List.copyOf(held);
    held.clear();
    return out;
  }
}

package io.rackfabric.host.controlplane;

import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.host.controlplane.ControlPlaneHost.ClientAnswer;
import io.rackfabric.host.controlplane.ControlPlaneHost.ClientRequest;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The control-plane requests a management host got on a guest channel (model-time requests, see
 * {@link ControlPlaneClient}): each one's call stays open until it is answered, persisted and
 * replicated as any request, so that the host's endpoint handles nothing later meanwhile and the
 * journals take the operations in model-time order; the answer goes back on the channel, stamped no
 * earlier than the request's arrival. Not thread-safe: the host's actor's own.
 */
final class ChannelRequests {

  private record Pending(GuestCall call, GuestAddress client, long requestSeq, long at) {}

  private final HostGuest guest;
  /** By the very operation object the host serves (its answer names it). */
  private final Map<Operation, Pending> pending = new IdentityHashMap<>();

  ChannelRequests(HostGuest guest) {
    this.guest = guest;
  }

  /** Request {@code r} arrived at model time {@code at} in {@code call}: the operation to serve. */
  Operation arrived(ClientRequest r, long at, GuestCall call) {
    Operation op = Operations.restamp(r.request(), at, null);
    pending.put(op, new Pending(call, r.client(), r.request().requestSeq(), at));
    return op;
  }

  /** The model time {@code op} arrived at, or -1 when it did not come on a channel. */
  long arrivedAt(Operation op) {
    Pending p = pending.get(op);
    return p == null ? -1 : p.at();
  }

  /** Where {@code op}'s requester takes answers on its channel, or null when it did not come on one. */
  GuestAddress client(Operation op) {
    Pending p = pending.get(op);
    return p == null ? null : p.client();
  }

  /** Tells {@code op}'s requester {@code result}: on its channel when it came on one, else directly. */
  void reply(Operation op, OperationResult result) {
    if (!answer(op, result) && op.replyTo() != null) {
      op.replyTo().tell(result);
    }
  }

  /** Refuses {@code op} with {@code no}: on a channel stamped at the request's arrival. */
  void refuse(Operation op, OperationResult no) {
    long at = arrivedAt(op);
    reply(op, at < 0 ? no : new OperationResult(no.status(), no.seqNr(), at, no.detail(), no.events()));
  }

  /**
   * Answers {@code op} on its channel, stamped at its arrival at the earliest, and ends its call;
   * false when {@code op} did not come on a channel.
   */
  boolean answer(Operation op, OperationResult result) {
    Pending p = pending.remove(op);
    if (p == null) {
      return false;
    }
    long at = Math.max(p.at(), result.at());
    OperationResult stamped = at == result.at() ? result
        : new OperationResult(result.status(), result.seqNr(), at, result.detail(), result.events());
    guest.send(p.client(), new ClientAnswer(p.requestSeq(), stamped), at);
    guest.answer(p.call());
    return true;
  }
}

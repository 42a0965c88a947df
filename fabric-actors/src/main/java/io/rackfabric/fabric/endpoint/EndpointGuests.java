package io.rackfabric.fabric.endpoint;

import akka.actor.typed.ActorRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An endpoint's guests (see {@link GuestCall}) and the calls it waits on: which reply addresses
 * belong to a guest (the adapters it watches and reads with), and which calls are unanswered.
 * Notices ({@link GuestCall.Hold}) are calls too, but outside model time: no event waits on them,
 * only whoever asked for them, told once every guest answered.
 * Not thread-safe: one owner (the endpoint's actor).
 */
final class EndpointGuests {

  private final List<ActorRef<GuestCall>> guests = new ArrayList<>();
  private final Map<ActorRef<?>, ActorRef<GuestCall>> byReplyRef = new HashMap<>();
  /** Open calls and the guest each waits on. */
  private final Map<Long, ActorRef<GuestCall>> open = new HashMap<>();
  /** Open notices, each with its guest and the notices opened with it. */
  private final Map<Long, Notice> notices = new HashMap<>();
  private long lastCall;

  /** Notices opened together: those still open, and what runs once the last is answered. */
  private record Notices(Set<Long> open, Runnable whenAnswered) {}

  private record Notice(ActorRef<GuestCall> guest, Notices group) {}

  /** Attaches a guest; what the endpoint would send to one of {@code replyRefs} becomes a call to it. */
  void attach(ActorRef<GuestCall> guest, List<? extends ActorRef<?>> replyRefs) {
    if (!guests.contains(guest)) {
      guests.add(guest);
    }
    replyRefs.forEach(r -> byReplyRef.put(r, guest));
  }

  List<ActorRef<GuestCall>> all() {
    return guests;
  }

  /** The guest that answers for {@code replyTo}, or null when it is nobody's. */
  ActorRef<GuestCall> guestOf(ActorRef<?> replyTo) {
    return byReplyRef.get(replyTo);
  }

  boolean attached(ActorRef<GuestCall> guest) {
    return guests.contains(guest);
  }

  /**
   * Takes a guest off (its software stopped): nothing is sent to it any more, its reply addresses
   * are nobody's, and its open calls are closed. True when that left no call open.
   */
  boolean detach(ActorRef<GuestCall> guest) {
    guests.remove(guest);
    byReplyRef.values().removeIf(g -> g.equals(guest));
    boolean had = open.values().removeIf(g -> g.equals(guest));
    notices.entrySet().stream().filter(e -> e.getValue().guest().equals(guest)).map(Map.Entry::getKey)
        .toList().forEach(this::closeNotice);
    return had && open.isEmpty();
  }

  /**
   * Opens a notice to every guest, numbered by guest (empty: no guest); {@code whenAnswered} runs
   * once each is answered or its guest detached, at once when there is no guest.
   */
  Map<ActorRef<GuestCall>, Long> openNotices(Runnable whenAnswered) {
    Map<ActorRef<GuestCall>, Long> calls = new LinkedHashMap<>();
    Notices group = new Notices(new HashSet<>(), whenAnswered);
    for (ActorRef<GuestCall> guest : guests) {
      calls.put(guest, ++lastCall);
      group.open().add(lastCall);
      notices.put(lastCall, new Notice(guest, group));
    }
    if (calls.isEmpty()) {
      whenAnswered.run();
    }
    return calls;
  }

  /** Opens a call to {@code guest}; returns its number. */
  long open(ActorRef<GuestCall> guest) {
    open.put(++lastCall, guest);
    return lastCall;
  }

  /** A guest answered {@code call}; true when no call in model time is left open. */
  boolean answered(long call) {
    if (closeNotice(call)) {
      return false; // no event waited on it
    }
    open.remove(call);
    return open.isEmpty();
  }

  /** Closes notice {@code call}, if it is one, running its group's end when it was the last. */
  private boolean closeNotice(long call) {
    Notice notice = notices.remove(call);
    if (notice == null) {
      return false;
    }
    Notices group = notice.group();
    group.open().remove(call);
    if (group.open().isEmpty()) {
      group.whenAnswered().run();
    }
    return true;
  }

  int openCalls() {
    return open.size();
  }
}

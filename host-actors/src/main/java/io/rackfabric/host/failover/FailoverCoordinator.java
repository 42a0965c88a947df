package io.rackfabric.host.failover;

import io.rackfabric.host.failover.HostLog.Step;
import io.rackfabric.host.memory.Plane;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The MH's data-plane fail-over software (Ladon sections 4.2, 5.3) without the actor around it: the
 * polling thread's reports, queued while a notification round runs; the verdict, the response to
 * the reporting CH and the redirection of the MH's own DMA targets; the notification round, one
 * CH at a time or one multicast write, resent over the other plane when the plane it went over is
 * lost; and retransmission of notifications whose acknowledgement does not come.
 *
 * <p>Each step takes the model time its event reached the MH and returns what to do: the control
 * words to write through the MH's root endpoint, with their model times, the log entries, and the
 * rounds that ended. Model time moves only with the events given here.
 *
 * <p>A lost notification or acknowledgement produces no event, so the retransmission rule runs on
 * the wall clock: {@link #checkAcks} resends once a round has waited {@code ack-grace} of wall time
 * since its last progress (a write or an accepted acknowledgement), stamped at the later of the
 * MH's latest model time and the repeated write's time plus {@code ack-timeout}. After {@code
 * max-resends} resends to one CH the MH gives up on it; the round goes on with the other CHs and
 * ends as failed. Not thread-safe: one owner (the actor).
 */
public final class FailoverCoordinator {

  /** A control word to write through the MH's root endpoint at {@code address}, at model {@code at}. */
  public record Write(long address, ControlWord word, long at) {}

  /**
   * A notification round ended at model {@code endedAt}: every CH acknowledged the route change
   * for {@code failedHost}, except those in {@code unacknowledged}, which the MH gave up on.
   */
  public record RoundEnded(int failedHost, Plane failedPlane, NotificationMode mode, long verdictAt,
      long endedAt, List<Integer> unacknowledged) {

    public RoundEnded {
      unacknowledged = List.copyOf(unacknowledged);
    }

    public boolean completed() {
      return unacknowledged.isEmpty();
    }
  }

  /** What one step produced, each list in the order it happened. */
  public record Outcome(List<Write> writes, List<HostLog.Entry> log, List<RoundEnded> ended) {

    public Outcome {
      writes = List.copyOf(writes);
      log = List.copyOf(log);
      ended = List.copyOf(ended);
    }
  }

  /** A failure report (or the MH's own loss of a plane, host 0) waiting for its round. */
  private record Report(int ch, Plane plane, long seenAt) {}

  private record Judged(Report report, long verdictAt) {}

  /** The latest notification write to one CH in the running round. */
  private record Attempt(Plane via, long sentAt, int resends) {}

  /** The running round: the report it answers and its notifier. */
  private record Round(Report report, long verdictAt, Notifier notifier, Map<Integer, Attempt> attempts) {
    Plane healthy() {
      return report.plane().other();
    }
  }

  /** Collects one step's results. */
  private static final class Steps {
    final List<Write> writes = new ArrayList<>();
    final List<HostLog.Entry> log = new ArrayList<>();
    final List<RoundEnded> ended = new ArrayList<>();

    Outcome outcome() {
      return new Outcome(writes, log, ended);
    }
  }

  private final LadonAddresses addresses;
  private final FailoverTimings settings;
  private final LongSupplier wallNanos;
  private final RouteList dmaTargets;
  /** Reports judged (verdict given, DMA redirected) whose round waits for the notifier. */
  private final Deque<Judged> pending = new ArrayDeque<>();
  private NotificationMode mode;
  private Round round;
  /** When the polling thread is free again: it reads one report at a time. */
  private long pollerFreeAt;
  /** When the notifier is free again: a queued round starts after the previous one ended. */
  private long notifierFreeAt;
  /** The latest model time the MH knows of: any event it saw or any write it issued. */
  private long latest;
  /** Wall time of the running round's last progress: a write, or an accepted acknowledgement. */
  private long progressWall;
  /** The run holds the rack at this model time (a fault's): nothing stamped there moves yet. */
  private long horizon = Long.MAX_VALUE;
  private int seq;

  /**
   * @param mode how the first round notifies; {@link #useMode} changes it for later rounds
   * @param wallNanos the wall clock in nanoseconds (System::nanoTime, or a test's), for {@link #checkAcks}
   */
  public FailoverCoordinator(LadonAddresses addresses, FailoverTimings settings, NotificationMode mode,
      LongSupplier wallNanos) {
    this.addresses = addresses;
    this.settings = settings;
    this.mode = mode;
    this.wallNanos = wallNanos;
    this.dmaTargets = new RouteList(addresses.computeHosts());
  }

  /** Notify the CHs this way from the next round on. */
  public void useMode(NotificationMode mode) {
    this.mode = mode;
  }

  /**
   * CH {@code ch}'s failure report for its {@code failedPlane} landed in the MH's mailbox at model
   * {@code arrivedAt}; the polling thread reads it after its poll latency, once free.
   */
  public Outcome reportLanded(int ch, Plane failedPlane, long arrivedAt) {
    Steps out = new Steps();
    long seen = Math.max(arrivedAt + settings.pollLatencyNs(), pollerFreeAt);
    pollerFreeAt = seen;
    note(seen);
    log(out, Step.REPORT_SEEN, ch, seen);
    judge(out, new Report(ch, failedPlane, seen));
    return out.outcome();
  }

  /**
   * The MH's own AER driver saw the path to {@code plane}'s switch fail (arrival at model {@code
   * arrivedAt}): every CH is reached through the other plane from now on, a notification of the
   * running round that went over the lost plane is sent again over the other, and a round that
   * moves every CH follows.
   */
  public Outcome planeLost(Plane plane, long arrivedAt) {
    Steps out = new Steps();
    long handled = arrivedAt + settings.aerInterruptLatencyNs();
    note(handled);
    log(out, Step.AER_RECEIVED, ControlWord.EVERY_HOST, arrivedAt);
    log(out, Step.AER_HANDLED, ControlWord.EVERY_HOST, handled);
    for (int ch = 1; ch <= addresses.computeHosts(); ch++) {
      dmaTargets.use(ch, plane.other());
    }
    if (round != null) {
      for (int ch : round.notifier().waiting()) {
        if (round.attempts().get(ch).via() == plane) {
          resend(out, ch, handled);
        }
      }
    }
    judge(out, new Report(ControlWord.EVERY_HOST, plane, handled));
    return out.outcome();
  }

  /**
   * CH {@code ch}'s acknowledgement {@code word} landed at model {@code arrivedAt}; the notifier,
   * spinning on the acknowledgement words, sees it after its spin latency. Only an acknowledgement
   * of the running round's route change from a CH it waits for counts; a repeat, a late one from an
   * earlier round or one nobody waits for is left out, log included.
   */
  public Outcome ackLanded(int ch, ControlWord word, long arrivedAt) {
    Steps out = new Steps();
    long seen = arrivedAt + settings.spinLatencyNs();
    note(seen);
    if (round == null || word.kind() != ControlWord.Kind.ACK || word.host() != round.report().ch()
        || word.plane() != round.report().plane() || !round.notifier().waiting().contains(ch)) {
      return out.outcome();
    }
    log(out, Step.ACK_SEEN, ch, seen);
    progressWall = wallNanos.getAsLong();
    send(out, round.notifier().acknowledged(ch, seen));
    endIfDone(out);
    return out.outcome();
  }

  /**
   * The retransmission rule, on the wall clock: if the running round has waited {@code ack-grace}
   * (doubled with each resend of the round: {@link FailoverTimings#ackGraceNanos}) since its last
   * progress, every CH still unacknowledged gets its notification again, or, after
   * {@code max-resends}, is given up on. Call it periodically while {@link #awaitingAcks}.
   */
  public Outcome checkAcks() {
    Steps out = new Steps();
    if (!awaitingAcks()) {
      return out.outcome();
    }
    long wall = wallNanos.getAsLong();
    int resends = round.notifier().waiting().stream().mapToInt(ch -> round.attempts().get(ch).resends()).max()
        .orElse(0);
    if (wall - progressWall < settings.ackGraceNanos(resends)) {
      return out.outcome();
    }
    progressWall = wall;
    boolean held = round.attempts().values().stream()
        .anyMatch(a -> Math.max(latest, a.sentAt() + settings.ackTimeoutNs()) >= horizon);
    if (held) {
      return out.outcome(); // the acknowledgement's model time has not come for the rack yet
    }
    resendOrAbandon(out, Long.MAX_VALUE);
    return out.outcome();
  }

  /**
   * The retransmission rule in model time, for a run under the model-time kernel, where a lost
   * notification's silence is itself a model-time event: at {@code now} (a wake at
   * {@link #nextAckDeadline}), every CH whose acknowledgement is {@code ack-timeout} overdue gets
   * its notification again, or, after {@code max-resends}, is given up on.
   */
  public Outcome checkAcksAt(long now) {
    Steps out = new Steps();
    if (awaitingAcks()) {
      resendOrAbandon(out, now);
    }
    return out.outcome();
  }

  /** When the model-time rule next has something to check, {@code Long.MAX_VALUE} for never. */
  public long nextAckDeadline() {
    if (!awaitingAcks()) {
      return Long.MAX_VALUE;
    }
    long next = Long.MAX_VALUE;
    for (int ch : round.notifier().waiting()) {
      Attempt a = round.attempts().get(ch);
      if (a != null) {
        next = Math.min(next, a.sentAt() + settings.ackTimeoutNs());
      }
    }
    return next;
  }

  /** Resends to (or gives up on) each CH still waiting whose ack timeout ran out by {@code now}. */
  private void resendOrAbandon(Steps out, long now) {
    Round checked = round;
    for (int ch : List.copyOf(checked.notifier().waiting())) {
      if (round != checked) {
        break; // giving up on the last one ended the round (and may have started the next)
      }
      Attempt attempt = checked.attempts().get(ch);
      if (attempt == null || attempt.sentAt() + settings.ackTimeoutNs() > now) {
        continue;
      }
      long at = Math.max(latest, attempt.sentAt() + settings.ackTimeoutNs());
      if (attempt.resends() < settings.maxResends()) {
        resend(out, ch, at);
      } else {
        note(at);
        log(out, Step.NOTIFICATION_ABANDONED, ch, at);
        send(out, round.notifier().abandon(ch, at));
        endIfDone(out);
      }
    }
  }

  /**
   * The rack is held at model time {@code modelAt} ({@code Long.MAX_VALUE}: not held). While a
   * resend would be stamped at or after it, nothing could have come back yet, so the wall-clock
   * grace does not run: it starts again when the hold is lifted.
   */
  public void holdFrom(long modelAt) {
    horizon = modelAt;
    progressWall = wallNanos.getAsLong();
  }

  /** True while a round waits for an acknowledgement: {@link #checkAcks} has something to check. */
  public boolean awaitingAcks() {
    return round != null && !round.notifier().waiting().isEmpty();
  }

  /** The plane the MH's own DMA reaches each target by, target 0 (unused) first. */
  public List<Plane> dmaTargets() {
    return dmaTargets.snapshot();
  }

  /** The latest model time the MH knows of: the least a timeout resend is stamped with. */
  public long latest() {
    return latest;
  }

  /**
   * The verdict on a report the polling thread just read, at its own model time: the response
   * and the DMA redirection go out at once, while the round of notifications it calls for waits
   * for the notifier if another round is running. (Judging it only when its round starts would
   * stamp those writes in the past.)
   */
  private void judge(Steps out, Report report) {
    int x = report.ch();
    Plane healthy = report.plane().other();
    long verdictAt = report.seenAt() + settings.verdictLatencyNs();
    note(verdictAt);
    if (x != ControlWord.EVERY_HOST && dmaTargets.plane(x) == healthy) {
      // Already failed over (its plane went down as a whole): answer the report, nothing to redo.
      respond(out, report, verdictAt);
      return;
    }
    log(out, Step.VERDICT, x, verdictAt);
    if (x == ControlWord.EVERY_HOST) {
      for (int ch = 1; ch <= addresses.computeHosts(); ch++) {
        dmaTargets.use(ch, healthy);
      }
    } else {
      respond(out, report, verdictAt);
      dmaTargets.use(x, healthy);
    }
    log(out, Step.DMA_REDIRECTED, x, verdictAt + settings.routeUpdateLatencyNs());
    pending.add(new Judged(report, verdictAt));
    startNext(out);
  }

  /** The oldest judged report's round of notifications, once the notifier is free. */
  private void startNext(Steps out) {
    while (round == null && !pending.isEmpty()) {
      Judged next = pending.poll();
      List<Integer> hosts = new ArrayList<>();
      for (int ch = 1; ch <= addresses.computeHosts(); ch++) {
        hosts.add(ch);
      }
      round = new Round(next.report(), next.verdictAt(), new Notifier(mode, hosts), new HashMap<>());
      // One notifier: a queued round cannot start before the previous one ended.
      send(out, round.notifier().start(Math.max(next.verdictAt(), notifierFreeAt)));
    }
  }

  private void respond(Steps out, Report report, long at) {
    int x = report.ch();
    write(out, addresses.responseOf(x, report.plane().other()),
        new ControlWord(ControlWord.Kind.RESPONSE, x, report.plane(), ++seq), at);
    log(out, Step.RESPONSE_SENT, x, at);
  }

  /** The round's first notifications, and each after an acknowledgement or a CH given up on. */
  private void send(Steps out, List<Notifier.Send> sends) {
    if (sends.isEmpty()) {
      return;
    }
    ControlWord word = routeChange();
    for (Notifier.Send s : sends) {
      if (s.ch() == Notifier.EVERY_HOST) {
        Plane healthy = round.healthy();
        write(out, addresses.multicastPage(healthy).base() + LadonAddresses.NOTIFICATION, word, s.at());
        for (int ch : round.notifier().waiting()) {
          round.attempts().put(ch, new Attempt(healthy, s.at(), 0));
        }
      } else {
        Plane via = reachable(s.ch());
        write(out, addresses.notificationOf(s.ch(), via), word, s.at());
        round.attempts().put(s.ch(), new Attempt(via, s.at(), 0));
      }
      log(out, Step.NOTIFICATION_SENT, s.ch(), s.at());
    }
    progressWall = wallNanos.getAsLong();
  }

  /**
   * The same news to one CH again, through the plane the MH reaches it by now. A new sequence
   * number, so its polling thread sees a change even if the first copy did arrive.
   */
  private void resend(Steps out, int ch, long at) {
    Attempt previous = round.attempts().get(ch);
    Plane via = reachable(ch);
    write(out, addresses.notificationOf(ch, via), routeChange(), at);
    round.attempts().put(ch, new Attempt(via, at, previous.resends() + 1));
    log(out, Step.NOTIFICATION_RESENT, ch, at);
    progressWall = wallNanos.getAsLong();
  }

  /**
   * The plane the MH reaches CH {@code ch} by: its DMA target, which every report read so far has
   * already moved (a report waiting for its round included). Notifying through a lost plane would
   * only cost resends until the round gives up on {@code ch}.
   */
  private Plane reachable(int ch) {
    return dmaTargets.plane(ch);
  }

  private ControlWord routeChange() {
    return new ControlWord(ControlWord.Kind.ROUTE_CHANGE, round.report().ch(), round.report().plane(), ++seq);
  }

  private void endIfDone(Steps out) {
    Notifier notifier = round.notifier();
    if (!notifier.completed()) {
      return;
    }
    int x = round.report().ch();
    long endedAt = notifier.completedAt();
    List<Integer> unacknowledged = List.copyOf(notifier.abandoned());
    log(out, unacknowledged.isEmpty() ? Step.FAILOVER_COMPLETED : Step.FAILOVER_FAILED, x, endedAt);
    out.ended.add(new RoundEnded(x, round.report().plane(), notifier.mode(), round.verdictAt(), endedAt,
        unacknowledged));
    notifierFreeAt = endedAt;
    round = null;
    startNext(out);
  }

  private void write(Steps out, long address, ControlWord word, long at) {
    note(at);
    out.writes.add(new Write(address, word, at));
  }

  private void log(Steps out, Step step, int host, long at) {
    out.log.add(new HostLog.Entry(step, host, at));
  }

  private void note(long at) {
    latest = Math.max(latest, at);
  }
}

package io.rackfabric.host.failover;

import java.util.function.LongSupplier;

/**
 * A CH's retransmission of its failure report: the MH answers every report it reads with a
 * response, so a report with no response after {@code ack-grace} of wall time (doubled with each
 * resend: {@link FailoverTimings#ackGraceNanos}) was lost (or its
 * response was) and is written again, stamped at least {@code ack-timeout} of model time after
 * the previous copy; after {@code max-resends} the CH gives up. The MH takes a repeated report of
 * a plane it already failed over as a question and only answers it. A lost report produces no
 * event, hence the wall clock, as for the MH's notifications ({@link FailoverCoordinator}). Not
 * thread-safe: one owner (the actor).
 */
public final class ReportRetry {

  /** What a check decided: nothing yet, write the report again at {@code at}, or give up at {@code at}. */
  public record Decision(Kind kind, long at) {
    public enum Kind { WAIT, RESEND, GIVE_UP }

    static final Decision WAIT = new Decision(Kind.WAIT, -1);
  }

  private final FailoverTimings settings;
  private final LongSupplier wallNanos;
  private boolean waiting;
  private long sentAt;
  private long sentWall;
  private int resends;
  /** The run holds the rack at this model time: nothing stamped there moves yet. */
  private long horizon = Long.MAX_VALUE;

  public ReportRetry(FailoverTimings settings, LongSupplier wallNanos) {
    this.settings = settings;
    this.wallNanos = wallNanos;
  }

  /** The report was written at model {@code modelAt}: wait for the response from now on. */
  public void sent(long modelAt) {
    waiting = true;
    sentAt = modelAt;
    sentWall = wallNanos.getAsLong();
  }

  /**
   * The rack is held at model time {@code modelAt} ({@code Long.MAX_VALUE}: not held). While the
   * resend would be stamped at or after it, the grace does not run: it starts again when lifted.
   */
  public void holdFrom(long modelAt) {
    horizon = modelAt;
    sentWall = wallNanos.getAsLong();
  }

  /** The MH's response was seen: nothing more to resend. */
  public void answered() {
    waiting = false;
  }

  public boolean waiting() {
    return waiting;
  }

  /** When the model-time rule next has something to decide, {@code Long.MAX_VALUE} for never. */
  public long deadline() {
    return waiting ? sentAt + settings.ackTimeoutNs() : Long.MAX_VALUE;
  }

  /**
   * The rule in model time, for a run under the model-time kernel (where a lost report's silence
   * is itself a model-time event): at {@code now} (a wake at {@link #deadline}), a report still
   * unanswered {@code ack-timeout} after its copy was sent is written again, or given up on.
   */
  public Decision checkAt(long now, long latest) {
    if (!waiting || now < deadline()) {
      return Decision.WAIT;
    }
    return decide(Math.max(latest, deadline()));
  }

  /**
   * Called periodically while {@link #waiting}; {@code latest} is the latest model time the CH
   * knows of, the least a resend is stamped with. A RESEND is recorded as sent.
   */
  public Decision check(long latest) {
    if (!waiting || wallNanos.getAsLong() - sentWall < settings.ackGraceNanos(resends)) {
      return Decision.WAIT;
    }
    long at = Math.max(latest, sentAt + settings.ackTimeoutNs());
    if (at >= horizon) {
      sentWall = wallNanos.getAsLong(); // held: the response's model time has not come for the rack
      return Decision.WAIT;
    }
    return decide(at);
  }

  private Decision decide(long at) {
    if (resends >= settings.maxResends()) {
      waiting = false;
      return new Decision(Decision.Kind.GIVE_UP, at);
    }
    resends++;
    sent(at);
    return new Decision(Decision.Kind.RESEND, at);
  }
}

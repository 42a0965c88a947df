package io.rackfabric.host.compute;

import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.TimerScheduler;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.host.failover.ReportRetry;
import java.time.Duration;

/**
 * How a compute host's failure report is resent while no response comes ({@link ComputeHost}):
 * its {@link ReportRetry} rule, checked at a model-time wake of the endpoint at the rule's deadline
 * when the endpoint runs under the model-time kernel, else on a wall-clock tick. The actor's own
 * part, as {@code management.RetransmitCheck} is the MH's for its notifications: not thread-safe.
 *
 * @param <T> the actor's message type, of which {@code tick} is the wall-clock tick
 */
final class ReportResend<T> {

  private static final String CHECK_REPORT = "check-report";

  private final ReportRetry rule;
  private final TimerScheduler<T> timers;
  private final T tick;
  private final Duration tickInterval;
  private final ActorRef<MemoryEndpoint.Command> endpoint;
  private final ActorRef<GuestCall> calls;
  /** The endpoint runs under the model-time kernel: the report's retransmission is a model-time wake. */
  private boolean underKernel;
  /** Tells the current retransmission wake from earlier ones. */
  private long wake;

  ReportResend(ReportRetry rule, TimerScheduler<T> timers, T tick, Duration tickInterval,
      ActorRef<MemoryEndpoint.Command> endpoint, ActorRef<GuestCall> calls) {
    this.rule = rule;
    this.timers = timers;
    this.tick = tick;
    this.tickInterval = tickInterval;
    this.endpoint = endpoint;
    this.calls = calls;
  }

  /** The endpoint attached this host as its guest, under the kernel or not. */
  void attached(boolean underKernel) {
    this.underKernel = underKernel;
  }

  boolean underKernel() {
    return underKernel;
  }

  /** The retransmission rule, for the report's sends, the run's holds and its checks. */
  ReportRetry rule() {
    return rule;
  }

  /** True when {@code token} is the current wake's, not an earlier one's. */
  boolean current(long token) {
    return token == wake;
  }

  /** Arms the next check: a model-time wake at the rule's deadline under the kernel, else the wall tick. */
  void arm() {
    if (underKernel) {
      long deadline = rule.deadline();
      if (deadline != Long.MAX_VALUE) {
        endpoint.tell(new MemoryEndpoint.WakeGuest(calls, deadline, ++wake));
      }
    } else {
      timers.startTimerWithFixedDelay(CHECK_REPORT, tick, tickInterval);
    }
  }

  /** The report was resent: under the kernel the next wake is armed (the wall tick goes on by itself). */
  void resent() {
    if (underKernel) {
      arm();
    }
  }

  /** The report was given up: the wall tick stops. */
  void stop() {
    timers.cancel(CHECK_REPORT);
  }

  /** A response came: no more checks; true when it is the first since the report was (re)sent. */
  boolean answered() {
    boolean first = rule.waiting();
    rule.answered();
    timers.cancel(CHECK_REPORT);
    if (underKernel) {
      // Any wake already asked for is stale: taken back (no change when it was called already).
      endpoint.tell(new MemoryEndpoint.CancelWake(calls, wake));
    }
    wake++;
    return first;
  }
}

package io.rackfabric.host.controlplane;

import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.host.controlplane.ControlPlaneClient.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.ClientAnswer;
import io.rackfabric.host.controlplane.ControlPlaneHost.ClientRequest;
import io.rackfabric.persistence.controller.Controller;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The driver in model time, as the guest of its host's endpoint: each attempt goes to the
 * management host's endpoint on a guest channel (a model-time event there, its answer one here),
 * and the page plan's pace, the attempt's time-out and the retry delay are wakes of the endpoint
 * (not background ones: a request still to send or to answer is work). Everything happens inside
 * a call of the endpoint, at the call's model time ({@link #at}). A wake made stale (an attempt
 * answered before its time-out, a retry or page timer replaced) is taken back, so that it keeps no
 * rack running to its time; one already on its way to the driver means nothing.
 *
 * <p>Not thread-safe: the driver's actor's own.
 */
final class ModelTimeTransport implements ClientTransport {

  private final HostGuest guest;
  private final String name;
  private List<GuestAddress> hosts;
  private final ClientSettings client;
  private final Map<Long, ControlPlaneClient.AttemptTimedOut> timeouts = new HashMap<>();
  private final Map<Long, ControlPlaneClient.Issue> issues = new HashMap<>();
  private long nextToken = 1;
  private long pageToken = -1;
  private long retryToken = -1;
  private long now;

  /** @param hosts where the management hosts take requests, in the driver's order of hosts */
  ModelTimeTransport(HostGuest guest, String name, List<GuestAddress> hosts, ClientSettings client) {
    this.guest = guest;
    this.name = name;
    this.hosts = List.copyOf(hosts);
    this.client = client;
  }

  /** The endpoint's call being handled is at model time {@code t}. */
  void at(long t) {
    now = Math.max(now, t);
  }

  long now() {
    return now;
  }

  @Override
  public long clock() {
    return now;
  }

  @Override
  public void send(RequestQueue.Attempt a, Controller.Request request) {
    Controller.Request stamped = new Controller.Request(name, request.requestSeq(),
        Operations.restamp(request.operation(), request.operation().at(), null));
    guest.send(hosts.get(a.host()), new ClientRequest(stamped, guest.address()), now);
    long token = nextToken++;
    timeouts.put(token, new ControlPlaneClient.AttemptTimedOut(a.requestSeq(), a.host(), a.attempt()));
    guest.wake(now + client.attemptTimeout().toNanos(), token, false);
  }

  @Override
  public void answered() {
    cancelTimeouts();
    retryToken = cancel(retryToken);
  }

  @Override
  public void retryAfterDelay() {
    cancelTimeouts(); // answered, if not served: as on the wall clock, the attempt's time-out is off
    cancel(retryToken);
    retryToken = nextToken++;
    guest.wake(now + client.retryDelay().toNanos(), retryToken, false);
  }

  @Override
  public void nextPage(long at, long delayNs) {
    cancel(pageToken);
    pageToken = nextToken++;
    guest.wake(at, pageToken, false);
  }

  @Override
  public void stopPages() {
    pageToken = cancel(pageToken);
  }

  /**
   * Takes back the time-out of every attempt still waiting for one: only the open request's
   * attempts are sent, and each earlier one timed out or was answered already.
   */
  private void cancelTimeouts() {
    timeouts.keySet().forEach(guest::cancelWake);
    timeouts.clear();
  }

  /** Takes back wake {@code token} unless none ({@code -1}); returns -1, for no wake pending. */
  private long cancel(long token) {
    if (token != -1) {
      guest.cancelWake(token);
    }
    return -1;
  }

  /**
   * An operation handed to the driver from outside (not inside a call) enters at its own model
   * time, as a wake: what it sends then leaves at that time.
   */
  void issueAt(ControlPlaneClient.Issue issue) {
    long token = nextToken++;
    issues.put(token, issue);
    guest.wake(Math.max(issue.operation().at(), now), token, false);
  }

  /**
   * What the endpoint's {@code call} stands for, at the call's time: a wake of the driver's, a
   * host's answer or its notice that a loan ended; null for a stale wake or anything else.
   */
  Command called(GuestCall call) {
    if (call instanceof GuestCall.Wake w) {
      at(w.at());
      return woken(w.token());
    }
    if (call instanceof GuestCall.FromPeer p && p.payload() instanceof ClientAnswer answer) {
      at(p.at());
      return answer(p.from(), answer);
    }
    if (call instanceof GuestCall.FromPeer p && p.payload() instanceof ControlPlaneHost.LoanEnded ended) {
      at(p.at());
      return new ControlPlaneClient.LoanEndNoticed(ended, p.at());
    }
    return null;
  }

  /** What the wake {@code token} stands for, or null for a stale one. */
  private Command woken(long token) {
    ControlPlaneClient.Issue issued = issues.remove(token);
    if (issued != null) {
      return issued;
    }
    if (token == pageToken) {
      pageToken = -1;
      return ControlPlaneClient.IssueNextPage.INSTANCE;
    }
    if (token == retryToken) {
      retryToken = -1;
      return ControlPlaneClient.Retry.INSTANCE;
    }
    return timeouts.remove(token);
  }

  /** A host's answer on the channel from endpoint {@code from}; null when from no host of the driver's. */
  private Command answer(String from, ClientAnswer a) {
    for (int i = 0; i < hosts.size(); i++) {
      if (hosts.get(i).endpoint().equals(from)) {
        return new ControlPlaneClient.Answered(a.requestSeq(), i, a.result());
      }
    }
    return null;
  }

  @Override
  public void useHosts(ControlPlaneClient.UseHosts hosts) {
    if (!hosts.guests().isEmpty()) {
      this.hosts = List.copyOf(hosts.guests());
    }
  }
}

package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.host.controlplane.ControlPlaneClient.RequestRecord;
import io.rackfabric.persistence.controller.Controller.Status;
import java.util.List;

/**
 * One compute host's control-plane requests in a run, and what the master's controller held of
 * them at the end.
 *
 * @param count requests the scenario asked for
 * @param records each request answered (or given up), in request order
 * @param pagesOpen of the requested pages, those open in the master's controller at the end; -1
 *     when no master answered
 * @param lastRequestApplied the client's last request the controller recorded; -1 as above
 * @param master the host whose controller was read
 * @param error why the run's view is incomplete, or empty
 */
public record ControlRequestsResult(String host, int count, List<RequestRecord> records, long pagesOpen,
    long lastRequestApplied, String master, String error) {

  public ControlRequestsResult {
    records = List.copyOf(records);
  }

  public long accepted() {
    return records.stream().filter(r -> r.status() == Status.ACCEPTED).count();
  }

  /** Accepted on a resend because an earlier attempt had been applied (its answer was lost). */
  public long alreadyApplied() {
    return records.stream().filter(RequestRecord::alreadyApplied).count();
  }

  public long givenUp() {
    return records.stream().filter(r -> r.status() == null).count();
  }

  public long refused() {
    return records.stream().filter(r -> r.status() != null && r.status() != Status.ACCEPTED).count();
  }

  /** Answered at or after model time {@code at} (the end of a take-over). */
  public long answeredFrom(long at) {
    return records.stream().filter(r -> r.status() != null && r.answeredAt() >= at).count();
  }

  public int attemptsMax() {
    return records.stream().mapToInt(RequestRecord::attempts).max().orElse(0);
  }

  /** Model time from issue to answer, the longest. */
  public long latencyMax() {
    return records.stream().filter(r -> r.status() != null).mapToLong(r -> r.answeredAt() - r.issuedAt()).max()
        .orElse(0);
  }

  public long wallLatencyMax() {
    return records.stream().mapToLong(RequestRecord::wallLatencyNs).max().orElse(0);
  }
}

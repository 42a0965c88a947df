package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.loadtests.scenario.language.LoanStep;
import io.rackfabric.persistence.controller.Controller.Status;
import java.util.List;

/**
 * One step of a scenario's {@code loans} as the controller answered it.
 *
 * @param issuedAt the model time the host's driver sent it
 * @param status the controller's answer; null when none came (given up, or the run ended first)
 * @param answeredAt the master's model time when it decided; -1 without an answer
 * @param detail the controller's reason for a rejection, or what went wrong, or empty
 * @param events the events it recorded, as text (an accepted step records one)
 */
public record LoanStepResult(LoanStep step, long issuedAt, Status status, long answeredAt, String detail,
    List<String> events) {

  public LoanStepResult {
    events = List.copyOf(events);
  }

  public boolean accepted() {
    return status == Status.ACCEPTED;
  }

  /** Whether the answer is the one the scenario expects. */
  public boolean asExpected() {
    return status != null && accepted() == step.expectAccepted();
  }

  /** Model time from the driver's send to the master's decision; -1 without an answer. */
  public long latencyNs() {
    return answeredAt < 0 ? -1 : answeredAt - issuedAt;
  }
}

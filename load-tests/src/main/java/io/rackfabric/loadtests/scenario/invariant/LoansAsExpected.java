package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.LoanStepResult;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code loans-as-expected}: every step of the scenario's {@code loans} was answered by the
 * controller, each accepted or rejected as its {@code expect} says (Device Lending, section 4: one
 * borrower at a time, a return only by the borrower, a returned device lendable again at once).
 */
public final class LoansAsExpected implements InvariantType {

  @Override
  public String name() {
    return "loans-as-expected";
  }

  @Override
  public String summary() {
    return "every loans step answered by the controller, accepted or rejected as its expect says";
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) {
    if (run.loans().isEmpty()) {
      return Verdict.fail("the scenario sends no loan step (no loans section)");
    }
    boolean pass = true;
    List<String> seen = new ArrayList<>();
    for (LoanStepResult r : run.loans()) {
      pass &= r.asExpected();
      seen.add("step " + r.step().index() + " (" + r.step().text() + "): "
          + (r.status() == null ? "no answer" : r.status().name().toLowerCase(java.util.Locale.ROOT))
          + (r.detail().isEmpty() ? "" : " (" + r.detail() + ")") + (r.asExpected() ? "" : " UNEXPECTED"));
    }
    return new Verdict(pass, String.join("; ", seen));
  }
}

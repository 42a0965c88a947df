package io.rackfabric.loadtests.scenario.api;

/** An invariant's judgement: pass or fail, and what was seen, in a sentence or a few. */
public record Verdict(boolean pass, String detail) {

  public static Verdict pass(String detail) {
    return new Verdict(true, detail);
  }

  public static Verdict fail(String detail) {
    return new Verdict(false, detail);
  }
}

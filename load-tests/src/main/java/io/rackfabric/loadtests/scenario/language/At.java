package io.rackfabric.loadtests.scenario.language;

/**
 * When a fault happens: {@code nanos} on {@code clock}. {@code written} is the text of the file
 * ({@code "50us"}, {@code "wall 2s"}, {@code "10us..20us"}); a range has been resolved with the
 * scenario's seed, so {@code nanos} is the time the run uses and reports.
 */
public record At(Clock clock, long nanos, String written) {

  public At {
    if (nanos < 0) {
      throw new IllegalArgumentException("nanos=" + nanos + " is negative");
    }
  }

  public boolean isModel() {
    return clock == Clock.MODEL;
  }

  @Override
  public String toString() {
    return clock == Clock.WALL ? "wall " + Durations.text(nanos) : Durations.text(nanos);
  }
}

package io.rackfabric.loadtests.scenario.language;

/**
 * The clock a scenario time is on. Model time is the emulation's own (nanoseconds of the causal
 * chain of messages, from 0 when the rack starts); wall time is measured on this machine from the
 * moment traffic starts.
 */
public enum Clock {
  MODEL("model"),
  WALL("wall");

  private final String text;

  Clock(String text) {
    this.text = text;
  }

  public String text() {
    return text;
  }

  @Override
  public String toString() {
    return text;
  }
}

package io.rackfabric.loadtests.scenario.language;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** Where a scenario's rack runs: every node in this JVM, or one JVM per topology node. */
public enum Mode {
  SINGLE_JVM("single-jvm"),
  MULTI_JVM("multi-jvm");

  private final String text;

  Mode(String text) {
    this.text = text;
  }

  /** As written in scenario files and on the command line. */
  public String text() {
    return text;
  }

  public static Optional<Mode> parse(String s) {
    String lower = s.trim().toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(m -> m.text.equals(lower)).findFirst();
  }

  @Override
  public String toString() {
    return text;
  }
}

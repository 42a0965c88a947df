package io.rackfabric.loadtests.scenario.language;

/**
 * The type of a kind's own parameter: how the parser reads and checks it, and the Java type it
 * becomes in {@link Params}.
 */
public enum ParamType {
  /** A duration with a unit ("5us"), model time: a {@code Long} of nanoseconds. */
  DURATION("duration"),
  /** A whole number of at least 1: a {@code Long}. */
  COUNT("count"),
  /** Free text: a {@code String}. */
  TEXT("text"),
  /** A probability, a number in [0,1]: a {@code Double}. */
  PROBABILITY("probability in [0,1]"),
  /** {@code true} or {@code false}: a {@code Boolean}. */
  BOOLEAN("true|false"),
  /** An endpoint id of the topology that is a root complex: a {@code String}. */
  ROOT_ENDPOINT("root endpoint id"),
  /** An endpoint id of the topology: a {@code String}. */
  ENDPOINT("endpoint id"),
  /** A list of traffic generator names of this scenario: a {@code List<String>}. */
  TRAFFIC("[traffic names]");

  private final String text;

  ParamType(String text) {
    this.text = text;
  }

  /** How the README and messages name the type. */
  public String text() {
    return text;
  }
}

package io.rackfabric.cluster.topology;

import java.util.List;

/**
 * A topology file that cannot be used, with every problem found in it. The message is the text a
 * user sees: one {@code file:line: key: reason} per line, nothing else, so callers print it as is
 * and never a stack trace. Checked so that every caller decides where that text goes.
 */
public final class TopologyException extends Exception {

  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  public TopologyException(List<String> problems) {
    super(String.join(System.lineSeparator(), problems));
    this.problems = List.copyOf(problems);
  }

  public TopologyException(String problem) {
    this(List.of(problem));
  }

  /** Each problem on its own, in file order. */
  public List<String> problems() {
    return problems;
  }
}

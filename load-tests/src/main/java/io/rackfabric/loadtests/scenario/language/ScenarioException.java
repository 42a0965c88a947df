package io.rackfabric.loadtests.scenario.language;

import java.util.List;

/**
 * A scenario that cannot be run, with every problem found in it, each {@code file:line: key:
 * reason} (problems of the topology it names come with the topology file's own name and line).
 * The message is what a user sees; nothing has been started when it is thrown.
 */
public final class ScenarioException extends Exception {

  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  public ScenarioException(List<String> problems) {
    super(String.join(System.lineSeparator(), problems));
    this.problems = List.copyOf(problems);
  }

  public ScenarioException(String problem) {
    this(List.of(problem));
  }

  public List<String> problems() {
    return problems;
  }
}

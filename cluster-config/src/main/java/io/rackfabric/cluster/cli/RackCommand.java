package io.rackfabric.cluster.cli;

import java.io.PrintStream;
import java.util.List;

/**
 * A {@code rack} subcommand. Implementations are found with {@link java.util.ServiceLoader}, so
 * modules above cluster-config (load-tests) add commands without this module knowing them.
 */
public interface RackCommand {

  String name();

  /** One line for {@code rack --help}. */
  String summary();

  /**
   * Runs the command. Returns the exit status: 0 success, 1 the run found a failure (an invariant,
   * an unreachable address), 2 bad input. Throw {@link UsageException} for bad arguments.
   */
  int run(List<String> args, PrintStream out, PrintStream err) throws Exception;
}

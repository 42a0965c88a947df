package io.rackfabric.cluster.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * A {@link RackCommand} not yet declared with picocli annotations: picocli knows its name and
 * summary (for {@code rack --help}, suggestions and completion) and hands every argument to the
 * command's own parser. {@code --help} shows the command's own usage when it has one, else
 * picocli's.
 */
final class DelegatingCommand implements Callable<Integer> {

  private final RackCommand command;
  private final PrintStream out;
  private final PrintStream err;
  private final CommandSpec spec;

  DelegatingCommand(RackCommand command, PrintStream out, PrintStream err) {
    this.command = command;
    this.out = out;
    this.err = err;
    this.spec = CommandSpec.wrapWithoutInspection(this).name(command.name());
    spec.usageMessage().description(command.summary());
    // Flags belong to the command's own parser; picocli must not reject them.
    spec.parser().unmatchedOptionsArePositionalParams(true);
    spec.addPositional(PositionalParamSpec.builder().index("0..*").arity("0..*").type(List.class)
        .auxiliaryTypes(String.class).paramLabel("ARGS").description("the command's flags, as its summary says")
        .build());
  }

  CommandSpec spec() {
    return spec;
  }

  @Override
  public Integer call() throws Exception {
    List<String> args = spec.positionalParameters().get(0).getValue();
    args = args == null ? List.of() : args;
    try {
      return command.run(args, out, err);
    } catch (UsageException e) {
      if (args.contains("--help") || args.contains("-h")) {
        new CommandLine(spec).usage(out); // the command has no help of its own
        return 0;
      }
      throw e;
    }
  }
}

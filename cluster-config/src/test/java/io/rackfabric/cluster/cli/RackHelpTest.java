package io.rackfabric.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** {@code rack --help}, {@code rack COMMAND --help}, suggestions for mistyped names, completion. */
class RackHelpTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int rack(String... args) {
    out.reset();
    err.reset();
    return Rack.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private static List<CommandLine> commands() {
    return List.copyOf(Rack.commandLine(System.out, System.err).getSubcommands().values());
  }

  @Test
  void shouldListEveryCommandWithItsSummaryWhenAskedForHelp() {
    assertEquals(0, rack("--help"), err());
    for (CommandLine c : commands()) {
      String[] description = c.getCommandSpec().usageMessage().description();
      String summary = description.length == 0 ? "" : description[0].split("%n")[0];
      assertTrue(out().contains(c.getCommandName()), c.getCommandName() + " missing from:\n" + out());
      assertTrue(out().contains(summary.substring(0, Math.min(30, summary.length()))), summary + "\n" + out());
    }
  }

  @Test
  void shouldNameEveryOptionWhenACommandIsAskedForHelp() {
    for (CommandLine c : commands()) {
      String name = c.getCommandName();
      assertEquals(0, rack(name, "--help"), name + ": " + err());
      assertTrue(!out().isBlank(), name);
      for (OptionSpec o : c.getCommandSpec().options()) {
        assertTrue(out().contains(o.longestName()), name + " --help lacks " + o.longestName() + ":\n" + out());
      }
    }
  }

  @Test
  void shouldShowTheSameHelpWhenAskedWithTheHelpCommand() {
    assertEquals(0, rack("keys", "--help"));
    String flagHelp = out();
    assertEquals(0, rack("help", "keys"));
    assertEquals(flagHelp, out());
    assertTrue(flagHelp.contains("--out=DIR") && flagHelp.contains("--force"), flagHelp);
  }

  @Test
  void shouldSuggestTheNearestCommandWhenACommandIsMistyped() {
    assertEquals(2, rack("enumerat"));
    assertTrue(err().startsWith("rack: unknown command 'enumerat'"), err());
    assertTrue(err().contains("Did you mean: rack enumerate"), err());
  }

  @Test
  void shouldSuggestTheNearestFlagWhenAFlagIsMistyped() {
    assertEquals(2, rack("keys", "--forc", "--out", "/tmp/unused"));
    assertTrue(err().startsWith("rack keys: Unknown option: '--forc'"), err());
    assertTrue(err().contains("Possible solutions: --force"), err());
  }

  @Test
  void shouldPrintUsageAsAnErrorWhenNoCommandIsGiven() {
    assertEquals(2, rack());
    assertTrue(err().contains("keys"), err());
  }

  @Test
  void shouldPrintABashCompletionScriptNamingTheCommands() {
    assertEquals(0, rack("completion"), err());
    assertTrue(out().contains("complete ") && out().contains("keys"), out());
  }
}

package io.rackfabric.loadtests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.cli.RackCommand;
import io.rackfabric.cluster.cli.Rack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** Every command of the whole {@code rack} (load-tests' too) answers {@code --help} with exit 0. */
class EveryCommandHelpTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int rack(String... args) {
    out.reset();
    err.reset();
    return Rack.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void shouldAnswerHelpWithExitZeroWhenAnyCommandIsAskedForHelp() {
    List<String> names = ServiceLoader.load(RackCommand.class).stream().map(p -> p.get().name()).toList();
    assertTrue(names.contains("chaos") && names.contains("run") && names.contains("bench"), names.toString());
    assertEquals(0, rack("--help"));
    String list = out.toString(StandardCharsets.UTF_8);
    for (String name : names) {
      assertTrue(list.contains(name), name + " missing from rack --help:\n" + list);
      assertEquals(0, rack(name, "--help"), name + ": " + err.toString(StandardCharsets.UTF_8));
      assertFalse(out.toString(StandardCharsets.UTF_8).isBlank(), name);
      assertEquals(0, rack("help", name), name);
    }
  }

  @Test
  void shouldNameEveryFlagWithItsDefaultWhenAPicocliCommandIsAskedForHelp() {
    CommandLine chaos = Rack.commandLine(System.out, System.err).getSubcommands().get("chaos");
    assertEquals(0, rack("chaos", "--help"));
    String help = out.toString(StandardCharsets.UTF_8);
    for (OptionSpec o : chaos.getCommandSpec().options()) {
      assertTrue(help.contains(o.longestName()), "chaos --help lacks " + o.longestName() + ":\n" + help);
    }
    assertTrue(help.contains("failover-seeds, random-flaps"), help);
    assertTrue(help.contains("target/rack-chaos/NAME-TIME") && !help.contains("Default: []"), help);
  }

  @Test
  void shouldNameTheBundledCampaignsWhenChaosGetsNoCampaign() {
    assertEquals(2, rack("chaos", "--check"));
    assertEquals("rack chaos: expected one campaign file or bundled name (bundled: failover-seeds, random-flaps),"
        + " got []\n", err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void shouldSuggestTheFlagWhenAChaosFlagIsMistyped() {
    assertEquals(2, rack("chaos", "random-flaps", "--chek"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("Possible solutions: --check"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void shouldCheckABundledCampaignWhenChaosIsGivenCheck() {
    assertEquals(0, rack("chaos", "random-flaps", "--check"), err.toString(StandardCharsets.UTF_8));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains(": ok"), out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void shouldSuggestTheCommandWhenALoadTestsCommandIsMistyped() {
    assertEquals(2, rack("chaoss"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("Did you mean: rack chaos"),
        err.toString(StandardCharsets.UTF_8));
  }
}

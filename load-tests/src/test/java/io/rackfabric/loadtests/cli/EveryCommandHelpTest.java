package io.rackfabric.loadtests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.cli.RackCommand;
import io.rackfabric.cluster.cli.Rack;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** Every command of the whole {@code rack} (load-tests' too) answers {@code --help} with exit 0. */
class EveryCommandHelpTest {

  private final RackRun rack = new RackRun();

  @Test
  void shouldAnswerHelpWithExitZeroWhenAnyCommandIsAskedForHelp() {
    List<String> names = ServiceLoader.load(RackCommand.class).stream().map(p -> p.get().name()).toList();
    assertTrue(names.contains("chaos") && names.contains("run") && names.contains("bench"), names.toString());
    assertEquals(0, rack.run("--help"));
    String list = rack.out();
    for (String name : names) {
      assertTrue(list.contains(name), name + " missing from rack --help:\n" + list);
      assertEquals(0, rack.run(name, "--help"), name + ": " + rack.err());
      assertFalse(rack.out().isBlank(), name);
      assertEquals(0, rack.run("help", name), name);
    }
  }

  @Test
  void shouldAnswerHelpWithExitZeroWhenAnySubcommandIsAskedForHelp() {
    CommandLine all = Rack.commandLine(System.out, System.err);
    int asked = 0;
    for (var command : all.getSubcommands().entrySet()) {
      for (String sub : command.getValue().getSubcommands().keySet()) {
        assertEquals(0, rack.run(command.getKey(), sub, "--help"), command.getKey() + " " + sub + ": " + rack.err());
        assertTrue(rack.out().startsWith("Usage: rack " + command.getKey() + " " + sub), rack.out());
        asked++;
      }
    }
    assertTrue(all.getSubcommands().get("bench").getSubcommands().containsKey("dataplane"), "rack bench dataplane");
    assertTrue(asked >= all.getSubcommands().get("bench").getSubcommands().size(), "asked " + asked);
  }

  @Test
  void shouldNameEveryFlagWithItsDefaultWhenAPicocliCommandIsAskedForHelp() {
    CommandLine chaos = Rack.commandLine(System.out, System.err).getSubcommands().get("chaos");
    assertEquals(0, rack.run("chaos", "--help"));
    String help = rack.out();
    for (OptionSpec o : chaos.getCommandSpec().options()) {
      assertTrue(help.contains(o.longestName()), "chaos --help lacks " + o.longestName() + ":\n" + help);
    }
    assertTrue(help.contains("failover-seeds, random-flaps"), help);
    assertTrue(help.contains("target/rack-chaos/NAME-TIME") && !help.contains("Default: []"), help);
  }

  @Test
  void shouldNameTheBundledCampaignsWhenChaosGetsNoCampaign() {
    assertEquals(2, rack.run("chaos", "--check"));
    assertEquals("rack chaos: expected one campaign file or bundled name (bundled: failover-seeds, random-flaps),"
        + " got []\n", rack.err());
  }

  @Test
  void shouldSuggestTheFlagWhenAChaosFlagIsMistyped() {
    assertEquals(2, rack.run("chaos", "random-flaps", "--chek"));
    assertTrue(rack.err().contains("Possible solutions: --check"),
        rack.err());
  }

  @Test
  void shouldCheckABundledCampaignWhenChaosIsGivenCheck() {
    assertEquals(0, rack.run("chaos", "random-flaps", "--check"), rack.err());
    assertTrue(rack.out().contains(": ok"), rack.out());
  }

  @Test
  void shouldSuggestTheCommandWhenALoadTestsCommandIsMistyped() {
    assertEquals(2, rack.run("chaoss"));
    assertTrue(rack.err().contains("Did you mean: rack chaos"),
        rack.err());
  }
}

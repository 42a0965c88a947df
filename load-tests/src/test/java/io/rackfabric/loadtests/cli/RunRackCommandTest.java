package io.rackfabric.loadtests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.cli.Rack;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Model.OptionSpec;

/** {@code rack run}'s flags on picocli: its help, and bad flags refused (exit 2) before anything loads. */
class RunRackCommandTest {

  /** Every flag {@code rack run} took before it moved to picocli. */
  private static final List<String> FLAGS = List.of("--json", "--mode", "--seed", "--transport", "--tls-dir",
      "--fault-rates", "--set", "--check", "--kinds", "--run-dir", "--reuse-run-dir", "--replay");

  private final RackRun rack = new RackRun();

  /** The text without its white space: picocli wraps a long description at spaces and after dots. */
  private static String squeezed(String text) {
    return text.replaceAll("\\s+", "");
  }

  @Test
  void shouldListEveryFlagWithItsDescriptionWhenRunIsAskedForHelp() {
    List<OptionSpec> options = Rack.commandLine(System.out, System.err).getSubcommands().get("run")
        .getCommandSpec().options();
    assertEquals(0, rack.run("run", "--help"), rack.err());
    String help = squeezed(rack.out());
    for (String flag : FLAGS) {
      OptionSpec o = options.stream().filter(s -> s.longestName().equals(flag)).findFirst().orElseThrow(
          () -> new AssertionError("rack run has no " + flag));
      String description = squeezed(String.join(" ", o.description()));
      assertFalse(description.isEmpty(), flag);
      assertTrue(help.contains(flag) && help.contains(description),
          "run --help lacks " + flag + " or its description '" + description + "':\n" + rack.out());
    }
    assertTrue(help.contains(squeezed(String.join(", ", ScenarioLoader.BUNDLED))), rack.out()); // the bundled ones
    assertTrue(help.contains(squeezed("(default: target/rack-runs/NAME-TIME")), rack.out());
    assertTrue(help.contains(squeezed("Exit 0 when every invariant held, 1 when one failed, 2 for bad flags")),
        rack.out());
  }

  @Test
  void shouldNameTheFlagAndTheModesWhenTheModeIsNotOne() {
    assertEquals(2, rack.run("run", "link-down-demo", "--mode", "fast"));
    assertEquals("rack run: --mode=fast not in {single-jvm, multi-jvm}\n", rack.err());
    assertEquals("", rack.out());
  }

  @Test
  void shouldSuggestTheFlagWhenARunFlagIsMistyped() {
    assertEquals(2, rack.run("run", "link-down-demo", "--chek"));
    assertTrue(rack.err().startsWith("rack run: Unknown option: '--chek'"), rack.err());
    assertTrue(rack.err().contains("Possible solutions: --check"), rack.err());
  }

  @Test
  void shouldNameTheFlagAndValueWhenTheSeedIsNotANumber() {
    assertEquals(2, rack.run("run", "link-down-demo", "--seed", "five"));
    assertTrue(rack.err().startsWith("rack run: Invalid value for option '--seed': 'five' is not a long"),
        rack.err());
  }

  @Test
  void shouldNameTheBundledScenariosWhenRunGetsNoScenarioOrTwo() {
    String expected = "rack run: expected one scenario file or bundled name (bundled: "
        + String.join(", ", ScenarioLoader.BUNDLED) + "), got ";
    assertEquals(2, rack.run("run", "--check"));
    assertEquals(expected + "[]\n", rack.err());
    assertEquals(2, rack.run("run", "link-down-demo", "contend", "--check"));
    assertEquals(expected + "[link-down-demo, contend]\n", rack.err());
  }

  @Test
  void shouldRefuseAScenarioOrAnOverrideBesideReplay() {
    assertEquals(2, rack.run("run", "--replay", "target/no-such-run", "link-down-demo"));
    assertEquals("rack run: --replay takes the scenario from the run's folder; drop [link-down-demo]\n", rack.err());
    assertEquals(2, rack.run("run", "--replay", "target/no-such-run", "--mode", "single-jvm"));
    assertEquals("rack run: --replay takes the mode, seed, transport, settings and faults from the record;"
        + " drop --mode\n", rack.err());
  }

  @Test
  void shouldNameTheTransportsWhenTheTransportIsNotOne() {
    assertEquals(2, rack.run("run", "link-down-demo", "--transport", "udp", "--check"));
    assertTrue(rack.err().startsWith("rack run: --transport") && rack.err().contains("aeron-udp"), rack.err());
  }

  @Test
  void shouldCheckABundledScenarioAndListTheKindsWithExitZero() {
    assertEquals(0, rack.run("run", "link-down-demo", "--check", "--seed", "7"), rack.err());
    assertTrue(rack.out().contains(": ok ("), rack.out());
    assertEquals(0, rack.run("run", "--kinds"), rack.err());
    assertTrue(rack.out().startsWith("fault kinds ") && rack.out().contains("invariant kinds"), rack.out());
  }

  @Test
  void shouldOfferTheBundledScenariosWhenBashCompletesRun() {
    assertEquals(0, rack.run("completion"), rack.err());
    assertTrue(rack.out().contains("multirack-1000"), "no bundled scenario in the completion script");
  }
}

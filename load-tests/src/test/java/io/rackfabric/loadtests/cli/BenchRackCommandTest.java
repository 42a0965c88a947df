package io.rackfabric.loadtests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.cli.Rack;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** {@code rack bench}'s help, one subcommand per benchmark, and bad flags refused before anything runs. */
class BenchRackCommandTest {

  private final RackRun rack = new RackRun();

  private static Map<String, CommandLine> benchmarks() {
    return Rack.commandLine(System.out, System.err).getSubcommands().get("bench").getSubcommands();
  }

  @Test
  void shouldListEveryBenchmarkAndTheRunOfAllFoursFlagsWhenBenchIsAskedForHelp() {
    assertEquals(0, rack.run("bench", "--help"), rack.err());
    String help = rack.out();
    for (String name : benchmarks().keySet()) {
      assertTrue(help.contains("\n  " + name + " "), name + " missing from rack bench --help:\n" + help);
    }
    assertTrue(help.contains("--events=N[,M...]") && help.contains("Default: 10000,100000"), help);
    assertTrue(help.contains("--racks=N") && help.contains("Default: 21"), help);
    assertTrue(help.contains("--tlps=N") && help.contains("Default: 200000"), help);
  }

  @Test
  void shouldNameEveryFlagWithItsDefaultWhenABenchmarkIsAskedForHelp() {
    for (Map.Entry<String, CommandLine> b : benchmarks().entrySet()) {
      assertEquals(0, rack.run("bench", b.getKey(), "--help"), b.getKey() + ": " + rack.err());
      String help = rack.out();
      assertTrue(help.startsWith("Usage: rack bench " + b.getKey() + " "), help);
      for (OptionSpec o : b.getValue().getCommandSpec().options()) {
        assertTrue(help.contains(o.longestName()), b.getKey() + " --help lacks " + o.longestName() + ":\n" + help);
        Object initial = o.initialValue();
        if (o.arity().max() > 0 && initial != null) {
          assertTrue(help.contains("Default: " + initial), b.getKey() + " " + o.longestName() + ":\n" + help);
        }
      }
    }
    assertEquals(0, rack.run("bench", "soak", "--help"));
    assertTrue(rack.out().contains("--tlps=N") && rack.out().contains("Default: 100000000"), rack.out());
  }

  @Test
  void shouldExitTwoNamingTheAllowedValuesWhenAValueIsBad() {
    assertEquals(2, rack.run("bench", "dataplane", "--only", "both"));
    assertEquals("rack bench dataplane: --only=both not in {single, cross}\n", rack.err());
    assertEquals(2, rack.run("bench", "dataplane", "--transport", "smoke-signals"));
    assertTrue(rack.err().startsWith("rack bench dataplane: --transport=smoke-signals not in {aeron-udp, tcp,"
        + " tls-tcp}"), rack.err());
    assertEquals(2, rack.run("bench", "dataplane", "--rounds", "0"));
    assertEquals("rack bench dataplane: --rounds=0 not in [1,50]\n", rack.err());
    assertEquals(2, rack.run("bench", "startup", "--racks", "32"));
    assertEquals("rack bench startup: --racks=32 not in [1,31]\n", rack.err());
    assertEquals(2, rack.run("bench", "soak", "--tlps", "lots"));
    assertEquals("rack bench soak: Invalid value for option '--tlps': 'lots' is not a whole number\n",
        rack.err().lines().findFirst().orElse("") + "\n");
    assertEquals(2, rack.run("bench", "loaded", "--json", "/no/such/folder/out.json"));
    assertEquals("rack bench loaded: --json=/no/such/folder/out.json: no directory /no/such/folder\n", rack.err());
    assertEquals("", rack.out(), "nothing ran");
  }

  @Test
  void shouldSuggestTheFlagWhenABenchmarksFlagIsMistyped() {
    assertEquals(2, rack.run("bench", "dataplane", "--tlsp", "5000"));
    assertTrue(rack.err().startsWith("rack bench dataplane: Unknown option: '--tlsp'"), rack.err());
    assertTrue(rack.err().contains("--tlps"), rack.err());
  }

  @Test
  void shouldExitTwoNamingWhereTheFlagGoesWhenItComesBeforeTheBenchmarksName() {
    assertEquals(2, rack.run("bench", "--json", "out.json", "controller"));
    assertEquals("rack bench controller: --json goes after the benchmark's name (rack bench controller --json ...)\n",
        rack.err());
  }

  @Test
  void shouldAcceptUnderscoresInACountWhenAFlagTakesOne() {
    // Parsed and checked: 10_000_000_000 is one over soak's limit, so nothing runs.
    assertEquals(2, rack.run("bench", "soak", "--tlps", "10_000_000_001"));
    assertEquals("rack bench soak: --tlps=10000000001 not in [100000,10000000000]\n", rack.err());
  }
}

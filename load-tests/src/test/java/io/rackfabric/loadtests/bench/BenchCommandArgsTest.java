package io.rackfabric.loadtests.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.cli.Rack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bad arguments to {@code rack bench} are usage errors (exit 2) naming the value, before anything runs. */
class BenchCommandArgsTest {

  private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();

  private int bench(String... args) {
    List<String> all = new java.util.ArrayList<>(List.of("bench"));
    all.addAll(List.of(args));
    return Rack.run(all, new PrintStream(outBytes, true, StandardCharsets.UTF_8),
        new PrintStream(errBytes, true, StandardCharsets.UTF_8));
  }

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void shouldExitTwoNamingTheBenchmarksWhenOneIsUnknown() {
    assertEquals(2, bench("jogging"));
    assertTrue(err().contains("unknown benchmark [jogging]"), err());
    assertTrue(err().contains("dataplane, controller, failover, startup"), err());
  }

  @Test
  void shouldExitTwoNamingTheValueWhenAnEventCountIsBad() {
    assertEquals(2, bench("controller", "--events", "10000,abc"));
    assertTrue(err().contains("--events=10000,abc: 'abc' is not a whole number"), err());
    errBytes.reset();
    assertEquals(2, bench("controller", "--events", "50"));
    assertTrue(err().contains("--events=50: 50 not in [100,1000000]"), err());
  }

  @Test
  void shouldExitTwoWhenAFlagBelongsToAnotherBenchmark() {
    assertEquals(2, bench("failover", "--events", "10000"));
    assertTrue(err().contains("--events does not apply to 'bench failover'"), err());
    errBytes.reset();
    assertEquals(2, bench("startup", "--tlps", "5000"));
    assertTrue(err().contains("--tlps does not apply to 'bench startup'"), err());
  }

  @Test
  void shouldExitTwoNamingTheValueWhenTheLoadedRackIsAskedForTooFewTlpsOrAWrongFlag() {
    assertEquals(2, bench("loaded", "--tlps", "10"));
    assertTrue(err().contains("tlps"), err());
    errBytes.reset();
    assertEquals(2, bench("loaded", "--rounds", "3"));
    assertTrue(err().contains("--rounds does not apply to 'bench loaded'"), err());
    errBytes.reset();
    assertEquals(2, bench("loaded", "--only", "both"));
    assertTrue(err().contains("--only=both not in {single, cross}"), err());
  }

  @Test
  void shouldExitTwoNamingTheValueWhenTheSoakIsAskedForTooFewTlpsOrAWrongFlag() {
    assertEquals(2, bench("soak", "--tlps", "10"));
    assertTrue(err().contains("tlps"), err());
    assertTrue(err().contains("10"), err());
    errBytes.reset();
    assertEquals(2, bench("soak", "--tlps", "lots"));
    assertTrue(err().contains("lots"), err());
    errBytes.reset();
    assertEquals(2, bench("soak", "--hosts", "4"));
    assertTrue(err().contains("--hosts does not apply to 'bench soak' (its flags: --tlps, --json)"), err());
    assertEquals("", outBytes.toString(StandardCharsets.UTF_8), "nothing ran");
  }

  @Test
  void shouldExitTwoBeforeAnythingRunsWhenTheAllRunHasABadValue() {
    assertEquals(2, bench("--racks", "40"));
    assertTrue(err().contains("racks"), err());
    errBytes.reset();
    assertEquals(2, bench("--hosts", "1"));
    assertTrue(err().contains("hosts"), err());
    errBytes.reset();
    assertEquals(2, bench("--transport", "smoke-signals"));
    assertTrue(err().contains("--transport=smoke-signals not in {aeron-udp, tcp, tls-tcp}"), err());
    assertEquals("", outBytes.toString(StandardCharsets.UTF_8), "nothing ran");
  }

  @Test
  void shouldExitTwoNamingTheValueBeforeAnythingRunsWhenTheLoansAreBadOrAFlagIsAnotherBenchmarks() {
    assertEquals(2, bench("lending", "--loans", "5"));
    assertTrue(err().contains("--loans=5 not in [10,1000000]"), err());
    errBytes.reset();
    assertEquals(2, bench("lending", "--loans", "many"));
    assertTrue(err().contains("'many' is not a whole number"), err());
    errBytes.reset();
    assertEquals(2, bench("lending", "--events", "10000"));
    assertTrue(err().contains("--events does not apply to 'bench lending' (its flags: --loans, --json)"), err());
    errBytes.reset();
    assertEquals(2, bench("--loans", "2000000"));
    assertTrue(err().contains("--loans=2000000 not in [10,1000000]"), err());
    assertEquals("", outBytes.toString(StandardCharsets.UTF_8), "nothing ran");
  }

  @Test
  void shouldExitTwoWhenTheFailoverRackIsTooSmallOrTooLarge() {
    assertEquals(2, bench("failover", "--hosts", "62"));
    assertTrue(err().contains("hosts"), err());
  }
}

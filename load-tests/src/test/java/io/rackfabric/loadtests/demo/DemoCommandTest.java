package io.rackfabric.loadtests.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.cli.Rack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code rack demo}'s flags: its help, and bad values refused before any node JVM starts. */
class DemoCommandTest {

  private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();

  private int demo(String... args) {
    outBytes.reset();
    errBytes.reset();
    List<String> all = new ArrayList<>(List.of("demo"));
    all.addAll(List.of(args));
    return Rack.run(all, new PrintStream(outBytes, true, StandardCharsets.UTF_8),
        new PrintStream(errBytes, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return outBytes.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void shouldListEveryFlagWithItsUnitAndDefaultWhenAskedForHelp() {
    assertEquals(0, demo("--help"), err());
    String o = out();
    assertTrue(o.contains("--tlps=N") && o.contains("Default: 20000"), o);
    assertTrue(o.contains("--size=BYTES") && o.contains("in bytes") && o.contains("Default: 64"), o);
    assertTrue(o.contains("--interval=NS") && o.contains("nanoseconds") && o.contains("Default: 1000"), o);
    assertTrue(o.contains("Default: aeron-udp") && o.contains("Default: shared"), o);
  }

  @Test
  void shouldExitTwoNamingTheValueWhenAFlagIsBad() {
    assertEquals(2, demo("--tlps", "0"));
    assertEquals("rack demo: --tlps=0 not in [1,10000000]\n", err());
    assertEquals(2, demo("--size", "5000"));
    assertEquals("rack demo: --size=5000 not in [1,4096]\n", err());
    assertEquals(2, demo("--interval", "soon"));
    assertTrue(err().startsWith("rack demo: Invalid value for option '--interval': 'soon' is not a long"),
        err());
    assertEquals(2, demo("--media-driver", "remote"));
    assertEquals("rack demo: --media-driver=remote not in {shared, embedded}\n", err());
    assertEquals(2, demo("--transport", "carrier-pigeon"));
    assertTrue(err().startsWith("rack demo: --transport=carrier-pigeon not in {aeron-udp, tcp, tls-tcp}"), err());
    assertEquals(2, demo("extra"));
    assertTrue(err().startsWith("rack demo: Unmatched argument at index 1: 'extra'"), err());
    assertEquals("", out());
  }
}

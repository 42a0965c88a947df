package io.rackfabric.loadtests.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.cli.RackRun;
import org.junit.jupiter.api.Test;

/** {@code rack demo}'s flags: its help, and bad values refused before any node JVM starts. */
class DemoCommandTest {

  private final RackRun rack = new RackRun();

  @Test
  void shouldListEveryFlagWithItsUnitAndDefaultWhenAskedForHelp() {
    assertEquals(0, rack.run("demo", "--help"), rack.err());
    String o = rack.out();
    assertTrue(o.contains("--tlps=N") && o.contains("Default: 20000"), o);
    assertTrue(o.contains("--size=BYTES") && o.contains("in bytes") && o.contains("Default: 64"), o);
    assertTrue(o.contains("--interval=NS") && o.contains("nanoseconds") && o.contains("Default: 1000"), o);
    assertTrue(o.contains("Default: aeron-udp") && o.contains("Default: shared"), o);
  }

  @Test
  void shouldExitTwoNamingTheValueWhenAFlagIsBad() {
    assertEquals(2, rack.run("demo", "--tlps", "0"));
    assertEquals("rack demo: --tlps=0 not in [1,10000000]\n", rack.err());
    assertEquals(2, rack.run("demo", "--size", "5000"));
    assertEquals("rack demo: --size=5000 not in [1,4096]\n", rack.err());
    assertEquals(2, rack.run("demo", "--interval", "soon"));
    assertTrue(rack.err().startsWith("rack demo: Invalid value for option '--interval': 'soon' is not a long"),
        rack.err());
    assertEquals(2, rack.run("demo", "--media-driver", "remote"));
    assertEquals("rack demo: --media-driver=remote not in {shared, embedded}\n", rack.err());
    assertEquals(2, rack.run("demo", "--transport", "carrier-pigeon"));
    assertTrue(rack.err().startsWith("rack demo: --transport=carrier-pigeon not in {aeron-udp, tcp, tls-tcp}"), rack.err());
    assertEquals(2, rack.run("demo", "extra"));
    assertTrue(rack.err().startsWith("rack demo: Unmatched argument at index 1: 'extra'"), rack.err());
    assertEquals("", rack.out());
  }
}

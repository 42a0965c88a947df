package io.rackfabric.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code rack switchover}: bad flags refused before anything joins, and a seed nobody answers at. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SwitchoverRackCommandTest {

  @TempDir
  Path dir;

  private static void assertRefused(String message, String... args) {
    RackRun rack = new RackRun();
    int status = rack.run("switchover", args);
    assertEquals(2, status, rack.err());
    assertEquals("rack switchover: " + message + "\n", rack.err());
    assertEquals("", rack.out());
  }

  @Test
  void shouldExitTwoWhenTheTopologyIsMissing() {
    assertRefused("--topology is required", "--to", "bmh");
  }

  @Test
  void shouldExitTwoNamingTheValueWhenTheTargetIsUnknown() {
    assertRefused("--to=cmh not in {mmh, bmh}", "--topology", "ladon-testbed", "--to", "cmh");
  }

  @Test
  void shouldExitTwoWhenTheTopologyHasNoManagementHostPair() {
    assertRefused("topology fig1.conf has no control-plane section: no management-host pair to switch over",
        "--topology", "fig1");
  }

  @Test
  void shouldExitTwoWhenTheTopologyCannotBeRead() {
    RackRun rack = new RackRun();
    int status = rack.run("switchover", "--topology", dir.resolve("missing.conf").toString());
    assertEquals(2, status, rack.err());
    assertEquals(1, rack.err().lines().count(), rack.err());
    assertEquals(true, rack.err().startsWith("rack switchover: ") && rack.err().contains("missing.conf"), rack.err());
  }

  @Test
  void shouldExitTwoWhenTheSeedIsNotHostColonPort() {
    assertRefused("--seed=localhost is not host:port", "--topology", "ladon-testbed", "--seed", "localhost");
    assertRefused("--seed=localhost:x is not host:port", "--topology", "ladon-testbed", "--seed", "localhost:x");
    assertRefused("--seed=localhost:0: port 0 not in [1,65535]", "--topology", "ladon-testbed",
        "--seed", "localhost:0");
  }

  @Test
  void shouldExitTwoWhenTheTimeoutIsNoPositiveDuration() {
    assertRefused("--timeout=soon is not a duration (e.g. 30s, 500ms, 2m)", "--topology", "ladon-testbed",
        "--timeout", "soon");
    assertRefused("--timeout=0s not in (0,1h]", "--topology", "ladon-testbed", "--timeout", "0s");
  }

  @Test
  void shouldExitTwoWhenTheTransportIsUnknown() {
    assertRefused("--transport=udp not in {aeron-udp, tcp, tls-tcp}", "--topology", "ladon-testbed",
        "--transport", "udp");
  }

  @Test
  void shouldExitTwoWhenTlsIsAskedWithoutTheRacksKeys() {
    assertRefused("tls key-store " + dir.resolve("node.p12") + ": no such file", "--topology", "ladon-testbed",
        "--transport", "tls-tcp", "--tls-dir", dir.toString());
  }

  @Test
  void shouldExitTwoNamingTheSeedWhenNoRackAnswersThere() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    RackRun rack = new RackRun();
    int status = rack.run("switchover", "--topology", "ladon-testbed", "--seed", "127.0.0.1:" + port,
        "--transport", "tcp", "--timeout", "3s");
    assertEquals(2, status, rack.err());
    assertEquals("rack switchover: no rack reachable at seed 127.0.0.1:" + port + " within 3s (is a rack node"
        + " running there, on the same --transport?)", rack.err().lines().filter(l -> l.startsWith("rack "))
        .findFirst().orElse(rack.err()));
    assertEquals("", rack.out());
  }
}

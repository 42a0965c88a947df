package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.cli.Rack;
import io.rackfabric.cluster.keys.RackKeys;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --transport tls-tcp} on the commands that start racks: the stores are checked before anything starts. */
class TlsRunArgsTest {

  @TempDir
  Path tmp;

  private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();

  private int rack(String... args) {
    outBytes.reset();
    errBytes.reset();
    return Rack.run(List.of(args), new PrintStream(outBytes, true, StandardCharsets.UTF_8),
        new PrintStream(errBytes, true, StandardCharsets.UTF_8));
  }

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void shouldCheckAMultiJvmRunOverTlsWhenTheKeysFolderIsWhatRackKeysMade() {
    Path keys = tmp.resolve("keys");
    RackKeys.create(keys, false);
    assertEquals(0, rack("run", "kill-node-demo", "--transport", "tls-tcp", "--tls-dir", keys.toString(), "--check"),
        err());
    assertTrue(outBytes.toString(StandardCharsets.UTF_8).contains(": ok ("), outBytes.toString(StandardCharsets.UTF_8));
  }

  @Test
  void shouldExitTwoNamingThePasswordFileWhenItIsWrong() throws Exception {
    Path keys = tmp.resolve("keys");
    RackKeys.create(keys, false);
    Files.writeString(keys.resolve("password"), "guess\n");
    assertEquals(2, rack("run", "kill-node-demo", "--transport", "tls-tcp", "--tls-dir", keys.toString(), "--check"));
    assertEquals("rack run: tls key-store " + keys.resolve("node.p12") + ": wrong password (from password file "
        + keys.resolve("password") + ")\n", err());
    assertEquals(2, rack("bench", "dataplane", "--transport", "tls-tcp", "--tls-dir", keys.toString()));
    assertEquals("rack bench dataplane: tls key-store " + keys.resolve("node.p12") + ": wrong password (from password file "
        + keys.resolve("password") + ")\n", err());
  }

  @Test
  void shouldExitTwoWhenATlsFolderIsGivenForARunThatIsNotOverTls() {
    assertEquals(2, rack("run", "kill-node-demo", "--transport", "tcp", "--tls-dir", tmp.toString(), "--check"));
    assertEquals("rack run: --tls-dir is for multi-JVM runs over tls-tcp (this run: multi-jvm over tcp)\n", err());
  }
}

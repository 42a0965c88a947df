package io.rackfabric.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code rack node}: flags refused before the node's actor system starts. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class NodeCommandTest {

  @TempDir
  Path dir;

  /** The journal's H2 URL would read the folder's ';' as the start of settings, INIT among them. */
  @Test
  void shouldExitTwoAndStartNothingWhenTheDataFolderHoldsAnH2Setting() throws Exception {
    Path data = dir.resolve("d;INIT=CREATE TABLE pwned(id INT)--");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Rack.run(List.of("node", "--topology", "ladon-testbed", "--node", "node-mmh",
            "--data-dir", data.toString()),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, status, text);
    assertTrue(text.startsWith("rack node: --data-dir=" + data + ": journal folder \""), text);
    assertTrue(text.endsWith("\": element \"d;INIT=CREATE TABLE pwned(id INT)--\" holds ';', which an"
        + " H2 URL would read as the start of a setting\n"), text);
    assertEquals(1, text.lines().count(), text);
    try (Stream<Path> left = Files.list(dir)) {
      assertEquals(List.of(), left.toList(), "no data folder, no d.mv.db");
    }
  }

  @Test
  void shouldExitTwoNamingTheValueWhenTheTransportIsUnknown() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Rack.run(List.of("node", "--topology", "ladon-testbed", "--node", "node-mmh",
            "--transport", "foo", "--data-dir", dir.resolve("data").toString()),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, status, text);
    assertEquals("rack node: --transport=foo not in {aeron-udp, tcp, tls-tcp}\n", text);
    try (Stream<Path> left = Files.list(dir)) {
      assertEquals(List.of(), left.toList(), "no data folder");
    }
  }

  @Test
  void shouldExitTwoNamingTheStoreAndStartNothingWhenTheTlsFolderHasNoKeyStore() throws Exception {
    Path keys = dir.resolve("keys");
    io.rackfabric.cluster.keys.RackKeys.create(keys, false);
    Files.delete(keys.resolve("node.p12"));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Rack.run(List.of("node", "--topology", "ladon-testbed", "--node", "node-mmh",
            "--transport", "tls-tcp", "--tls-dir", keys.toString(), "--data-dir", dir.resolve("data").toString()),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, status, text);
    assertEquals("rack node: tls key-store " + keys.resolve("node.p12") + ": no such file\n", text);
    assertTrue(Files.notExists(dir.resolve("data")), "no data folder");
  }

  /** The same --seed check as rack switchover's (RackReachOptions), before the node starts. */
  @Test
  void shouldExitTwoNamingTheValueWhenTheSeedIsNotHostColonPort() throws Exception {
    for (String[] seedAndMessage : List.of(new String[] {"localhost", "--seed=localhost is not host:port"},
        new String[] {"localhost:x", "--seed=localhost:x is not host:port"},
        new String[] {"localhost:0", "--seed=localhost:0: port 0 not in [1,65535]"})) {
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int status = Rack.run(List.of("node", "--topology", "ladon-testbed", "--node", "node-mmh",
              "--seed", seedAndMessage[0], "--data-dir", dir.resolve("data").toString()),
          new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8));
      String text = err.toString(StandardCharsets.UTF_8);
      assertEquals(2, status, text);
      assertEquals("rack node: " + seedAndMessage[1] + "\n", text);
    }
    assertTrue(Files.notExists(dir.resolve("data")), "no data folder");
  }

  @Test
  void shouldExitTwoWhenATlsFolderIsGivenForAnotherTransport() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Rack.run(List.of("node", "--topology", "ladon-testbed", "--node", "node-mmh",
            "--transport", "tcp", "--tls-dir", dir.toString(), "--data-dir", dir.resolve("data").toString()),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, status);
    assertEquals("rack node: --tls-dir is for --transport tls-tcp (the transport is tcp)\n",
        err.toString(StandardCharsets.UTF_8));
  }

  /** The only member, its own seed, downed through the cluster's JMX bean as an operator would. */
  @Test
  void shouldExitOneSayingWhyWhenTheClusterDownsTheNode() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    CountDownLatch ready = new CountDownLatch(1);
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream() {
      @Override
      public synchronized void write(byte[] b, int off, int len) {
        super.write(b, off, len);
        if (toString(StandardCharsets.UTF_8).contains("READY")) {
          ready.countDown();
        }
      }
    };
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CompletableFuture<Integer> status = CompletableFuture.supplyAsync(() -> Rack.run(List.of("node",
            "--topology", "ladon-testbed", "--node", "node-ch1", "--host", "127.0.0.1", "--port", "" + port,
            "--seed", "127.0.0.1:" + port, "--transport", "tcp", "--data-dir", dir.resolve("data").toString()),
        new PrintStream(outBytes, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
    assertTrue(ready.await(40, TimeUnit.SECONDS), () -> "no READY: " + err.toString(StandardCharsets.UTF_8));
    MBeanServer beans = ManagementFactory.getPlatformMBeanServer();
    ObjectName cluster = new ObjectName("akka:type=Cluster,port=" + port);
    beans.invoke(cluster, "down", new Object[] {"akka://rack@127.0.0.1:" + port}, new String[] {"java.lang.String"});
    String text;
    int code = status.get(30, TimeUnit.SECONDS);
    text = err.toString(StandardCharsets.UTF_8);
    assertEquals(1, code, text);
    assertEquals(List.of("rack node node-ch1: downed by the cluster (the other members removed this one, e.g. after"
        + " it was unreachable; start it again to rejoin)"), text.lines().filter(l -> l.startsWith("rack ")).toList(),
        text);
  }
}

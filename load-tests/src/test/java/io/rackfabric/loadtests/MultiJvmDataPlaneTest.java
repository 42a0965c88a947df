package io.rackfabric.loadtests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.endpoint.TrafficPlan;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.harness.ClusterRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * The demo rack on three node JVMs over aeron-udp, driven from this JVM: traffic crosses JVMs,
 * switches and NTBs; every posted write arrives exactly once, in order per path, with its payload
 * intact; reads cross back through the NTBs' requester-ID translation.
 */
@Tag("multi-jvm")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MultiJvmDataPlaneTest {

  static final int N = 3000;
  static final int SIZE = 64;
  static ClusterRun run;

  /** A stream of posted writes, where it lands in the sink's memory, and the sink. */
  record Flow(String from, long address, String sink, long sinkAddress) {}

  static final List<Flow> FLOWS = List.of(
      new Flow("ch1", 0x3_0000_0000L, "ch2", 0x0L),           // ch1 > tor(ntb1>ntb2) > ch2
      new Flow("ch2", 0x1_8000_0000L, "mem", 0x8000_0000L),   // ch2 > tor(ntb2>down) > leaf > mem
      new Flow("mh", 0x1_0000_0000L, "ch1", 0x0L));           // mh > tor(up>ntb1) > ch1

  @BeforeAll
  static void startRack() throws Exception {
    Topology topology = TopologyLoader.load("demo");
    run = ClusterRun.start(topology, "demo", "aeron-udp",
        Path.of("target", "multi-jvm", "dataplane-" + System.currentTimeMillis()), System.out);
  }

  @AfterAll
  static void stopRack() {
    if (run != null) {
      run.close();
    }
  }

  @Test
  @Order(1)
  void shouldDeliverEveryWriteOnceInOrderWithPayloadIntactWhenTrafficCrossesJvmsSwitchesAndNtbs() throws Exception {
    List<EndpointStats> before = new ArrayList<>();
    List<CompletableFuture<MemoryEndpoint.WritesReached>> reached = new ArrayList<>();
    for (Flow f : FLOWS) {
      EndpointStats s = Asks.stats(run.driver(), run.endpoint(f.sink()));
      before.add(s);
      reached.add(Asks.<MemoryEndpoint.Command, MemoryEndpoint.WritesReached>askAsync(run.driver(),
          run.endpoint(f.sink()), r -> new MemoryEndpoint.AwaitWrites(s.uniqueWrites() + N, r), Duration.ofMinutes(3)));
    }
    for (Flow f : FLOWS) {
      run.endpoint(f.from()).tell(new MemoryEndpoint.StartTraffic(
          new TrafficPlan(f.address(), (long) N * SIZE, SIZE, N, 500, false, true), run.driver().ignoreRef()));
    }
    for (CompletableFuture<MemoryEndpoint.WritesReached> r : reached) {
      r.get(3, TimeUnit.MINUTES);
    }
    for (int i = 0; i < FLOWS.size(); i++) {
      Flow f = FLOWS.get(i);
      EndpointStats after = Asks.stats(run.driver(), run.endpoint(f.sink()));
      assertEquals(N, after.uniqueWrites() - before.get(i).uniqueWrites(), f + ": unique writes");
      assertEquals(before.get(i).duplicateWrites(), after.duplicateWrites(), f + ": duplicates");
      assertEquals(before.get(i).reorderedWrites(), after.reorderedWrites(), f + ": out of order");
      for (long n : new long[] {0, 1, N / 2, N - 1}) {
        byte[] stored = Asks.ask(run.driver(), run.endpoint(f.sink()),
            (ActorRef<byte[]> r) -> new MemoryEndpoint.Peek(f.sinkAddress() + n * SIZE, SIZE, r), Duration.ofSeconds(10));
        assertArrayEquals(TrafficPlan.payload(n, SIZE), stored, f + ": payload of write " + n);
      }
    }
  }

  @Test
  @Order(2)
  void shouldReturnReadDataThroughNtbsWhenReadCrossesJvms() throws Exception {
    byte[] data = TrafficPlan.payload(0xC0FFEE, 600);
    // ch2 writes into mem (through tor.ntb2), ch1 reads it back (through tor.ntb1): 600 bytes come
    // back as three completions, each translated back to ch1's requester ID at the NTB.
    run.endpoint("ch2").tell(new MemoryEndpoint.Write(0x1_8800_0000L, data));
    TestProbe<MemoryEndpoint.ReadResult> probe = TestProbe.create(run.driver());
    probe.awaitAssert(Duration.ofSeconds(30), Duration.ofMillis(200), () -> {
      run.endpoint("ch1").tell(new MemoryEndpoint.Read(0x1_8800_0000L, data.length, probe.ref()));
      MemoryEndpoint.ReadResult r = probe.receiveMessage(Duration.ofSeconds(10));
      assertEquals(CompletionStatus.SUCCESSFUL, r.status());
      assertArrayEquals(data, r.data());
      return null;
    });
  }

  @Test
  @Order(3)
  void shouldDeliverEveryWriteOnceInOrderWhenTheSinksJvmIsPausedMidStream() throws Exception {
    // SIGSTOP, as a long garbage collection would: ch2's JVM (node-c) answers nothing while ch1
    // streams into it; shorter than the DLLP timeout, so no link goes down and the stream only waits.
    Flow f = FLOWS.get(0);
    EndpointStats before = stats(f.sink());
    EndpointStats sourceBefore = stats(f.from());
    int aerBefore = stats("mh").aerReceived().size();
    run.nodes().pause("node-c");
    assertTrue(run.nodes().isPaused("node-c"));
    TestProbe<Void> probe = TestProbe.create(run.driver());
    probe.awaitAssert(Duration.ofSeconds(10), Duration.ofMillis(20), () -> {
      assertEquals("T", processState("node-c"), "stopped");
      return null;
    });
    CompletableFuture<MemoryEndpoint.WritesReached> reached = Asks.askAsync(run.driver(), run.endpoint(f.sink()),
        r -> new MemoryEndpoint.AwaitWrites(before.uniqueWrites() + 500, r), Duration.ofMinutes(2));
    run.endpoint(f.from()).tell(new MemoryEndpoint.StartTraffic(
        new TrafficPlan(f.address(), 500L * SIZE, SIZE, 500, 500, false, true), run.driver().ignoreRef()));
    probe.awaitAssert(Duration.ofSeconds(10), Duration.ofMillis(20), () -> {
      assertTrue(stats(f.from()).writesSent() > sourceBefore.writesSent(), "ch1 sends into the paused JVM");
      return null;
    });
    run.nodes().resume("node-c");
    reached.get(2, TimeUnit.MINUTES);
    EndpointStats after = stats(f.sink());
    assertEquals(500, after.uniqueWrites() - before.uniqueWrites());
    assertEquals(before.duplicateWrites(), after.duplicateWrites());
    assertEquals(before.reorderedWrites(), after.reorderedWrites());
    assertEquals(aerBefore, stats("mh").aerReceived().size(), "no link went down");
    assertFalse(run.nodes().isPaused("node-c"));
  }

  /** Runs last: it kills a node. */
  @Test
  @Order(4)
  void shouldRaiseAerAtManagementHostWhenComputeHostJvmIsKilled() {
    // ch2's JVM dies without a word (SIGKILL): no surprise-down frame is sent, so tor.ntb2, on
    // another JVM, must notice the silence by DLLP timeout and report to its root, mh.
    int before = stats("mh").aerReceived().size();
    run.nodes().kill("node-c");
    TestProbe<Void> probe = TestProbe.create(run.driver());
    probe.awaitAssert(Duration.ofSeconds(30), Duration.ofMillis(250), () -> {
      List<EndpointStats.AerRecord> aer = stats("mh").aerReceived();
      assertEquals(before + 1, aer.size(), "one AER message from tor.ntb2");
      EndpointStats.AerRecord last = aer.get(aer.size() - 1);
      assertEquals("FATAL", last.severity());
      assertEquals("DLLP_TIMEOUT", last.cause());
      assertEquals("01:02.0", last.source(), "tor.ntb2's link-side function on the internal bus");
      return null;
    });
  }

  /** The kernel's one-letter state of a node's process (T: stopped), from /proc. */
  private static String processState(String node) {
    long pid = run.nodes().nodes().stream().filter(n -> n.name().equals(node)).findFirst().orElseThrow()
        .process().pid();
    String stat;
    try {
      stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    } catch (IOException e) {
      throw new AssertionError("no /proc entry for " + node + " (pid " + pid + ")", e);
    }
    return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  }

  private static EndpointStats stats(String id) {
    try {
      return Asks.stats(run.driver(), run.endpoint(id));
    } catch (Exception e) {
      throw new AssertionError("no statistics from " + id + ": " + e.getMessage(), e);
    }
  }
}

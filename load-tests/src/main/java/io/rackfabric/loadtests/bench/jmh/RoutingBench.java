package io.rackfabric.loadtests.bench.jmh;

import io.rackfabric.fabric.ntb.ProxyIdSpace;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.RouteDecision;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.routing.RoutingView;
import io.rackfabric.fabric.routing.SwitchRouter;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.MemWrite;
import java.util.Arrays;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Address and ID decode in one switch chip ({@link SwitchRouter} on a {@link RoutingView}), on
 * the Ladon rack's primary NTB chip: 30 ports, every posted write checked against the multicast
 * window before the ports are scanned. Writes go to every compute host in turn, so the scan
 * stops at each port position as often.
 */
@State(Scope.Thread)
public class RoutingBench {

  private RoutingView view;
  /** One posted write from the MH into each compute host's range of PMS1. */
  private MemWrite[] toHosts;
  private int[] hostPorts;
  /** A compute host's write to the MH's own memory: matched by no port, so it goes upstream. */
  private MemWrite toMh;
  /** The MH's completion to each compute host's proxied request, routed by ID. */
  private Completion[] completions;
  private MemWrite multicast;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    RoutingTable table = LadonFixture.ntbChip();
    view = RoutingView.of(table);
    int internalBus = table.internalBus(1);
    int hosts = LadonFixture.COMPUTE_HOSTS;
    toHosts = new MemWrite[hosts];
    hostPorts = new int[hosts];
    completions = new Completion[hosts];
    for (int ch = 1; ch <= hosts; ch++) {
      PortConfig port = table.port(ch);
      long base = port.ntb().linkBars().get(0).window().base();
      toHosts[ch - 1] = write(base + 0x1000L * ch);
      hostPorts[ch - 1] = ch;
      int proxy = ProxyIdSpace.linkSide(port.ntb(), internalBus, ch).id(0);
      completions[ch - 1] = new Completion(0x0100, proxy, 7, 0, CompletionStatus.SUCCESSFUL,
          LadonFixture.PAYLOAD, 0, LadonFixture.PAYLOAD, null, 0, ch);
    }
    toMh = write(0x1000);
    multicast = write(table.multicast().get(0).window().base());
    check();
  }

  private static MemWrite write(long address) {
    return new MemWrite(0x0100, 1, 0, address, LadonFixture.PAYLOAD, null, 0, 0);
  }

  /** Every prepared TLP must route where the benchmark says it does. */
  private void check() {
    for (int i = 0; i < toHosts.length; i++) {
      expectForward(SwitchRouter.route(view, LadonFixture.UPSTREAM_PORT, toHosts[i]), hostPorts[i]);
      expectForward(SwitchRouter.route(view, LadonFixture.UPSTREAM_PORT, completions[i]), hostPorts[i]);
    }
    expectForward(SwitchRouter.route(view, hostPorts[0], toMh), LadonFixture.UPSTREAM_PORT);
    RouteDecision mc = SwitchRouter.route(view, LadonFixture.UPSTREAM_PORT, multicast);
    if (!(mc instanceof RouteDecision.Multicast m) || m.ports().length != LadonFixture.COMPUTE_HOSTS) {
      throw new IllegalStateException("multicast write: " + mc + " is not a copy to "
          + LadonFixture.COMPUTE_HOSTS + " ports" + (mc instanceof RouteDecision.Multicast m
              ? " (" + Arrays.toString(m.ports()) + ")" : ""));
    }
  }

  private static void expectForward(RouteDecision d, int port) {
    if (!(d instanceof RouteDecision.Forward f) || f.port() != port) {
      throw new IllegalStateException("expected a forward to port " + port + ", got " + d);
    }
  }

  private int nextHost() {
    int i = next;
    next = i + 1 == toHosts.length ? 0 : i + 1;
    return i;
  }

  /** A posted write from the upstream port, matched against the compute hosts' link-side BARs. */
  @Benchmark
  public RouteDecision memWriteToNtbPort() {
    return SwitchRouter.route(view, LadonFixture.UPSTREAM_PORT, toHosts[nextHost()]);
  }

  /** The worst case of address routing: every port scanned, none claims, out the upstream port. */
  @Benchmark
  public RouteDecision memWriteToUpstream() {
    return SwitchRouter.route(view, hostPorts[nextHost()], toMh);
  }

  /** A completion routed by ID to the NTB port whose proxy requester ID it carries. */
  @Benchmark
  public RouteDecision completionById() {
    return SwitchRouter.route(view, LadonFixture.UPSTREAM_PORT, completions[nextHost()]);
  }

  /** A write into the plane's multicast page: the member list is built per TLP. */
  @Benchmark
  public RouteDecision multicastWrite() {
    return SwitchRouter.route(view, LadonFixture.UPSTREAM_PORT, multicast);
  }
}

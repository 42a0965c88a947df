package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.cluster.topology.DeviceKind;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.RouteExplainer;
import io.rackfabric.cluster.topology.RouteExplanation;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.loadtests.scenario.language.GpuPingPong.Via;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A scenario's {@code gpu-ping-pong = [ { name, ping, pong, via = p2p | ram, ping-to-pong,
 * pong-to-ping, ram = { host, to-pong, to-ping, pong-reads, ping-reads }, count, compare-to } ]}
 * (or, for words in a VM's memory, {@code ram = { vm, to-pong, to-ping }} with guest-physical
 * words and no other address: each GPU's comes from the VM's lender-side IOMMU map, {@link VmsSection}):
 * Device Lending's ping-pong latency program on two GPUs, one workload per item ({@link
 * GpuPingPong}), run one after the other. Every address is followed through the topology as {@code
 * rack route} does ({@link RouteExplainer}): p2p, each GPU's write must reach a dword of the other's
 * BAR1 (the word the other waits on); via RAM, each GPU's write and the other's reads must reach
 * the same dword of the host's RAM.
 */
final class GpuPingPongSection {

  static final String KEY = "gpu-ping-pong";

  private final ScenarioFile file;

  GpuPingPongSection(ScenarioFile file) {
    this.file = file;
  }

  List<GpuPingPong> workloads(Fields f, TopologyRef topology, Mode mode, Map<String, VmsSection.Vm> vms) {
    List<Fields> items = f.objects(KEY, false);
    if (items.isEmpty()) {
      return List.of();
    }
    if (mode == Mode.MULTI_JVM) {
      f.error(KEY, "gpu-ping-pong programs its GPUs from the driving JVM, next to their endpoints: mode must be"
          + " single-jvm");
    }
    List<GpuPingPong> out = new ArrayList<>();
    Map<String, Fields> names = new HashMap<>();
    for (Fields item : items) {
      GpuPingPong w = workload(item, topology == null ? null : topology.topology(), vms);
      if (w == null) {
        continue;
      }
      if (names.containsKey(w.name())) {
        item.error("name", "'" + w.name() + "' is the name of another gpu-ping-pong workload");
      } else {
        names.put(w.name(), item);
        out.add(w);
      }
    }
    for (GpuPingPong w : out) {
      if (w.compareTo() != null && (!names.containsKey(w.compareTo()) || w.compareTo().equals(w.name()))) {
        names.get(w.name()).error("compare-to", "compare-to=" + w.compareTo() + " is not another gpu-ping-pong"
            + " workload of this scenario (workloads: " + String.join(", ", names.keySet().stream().sorted().toList())
            + ")");
      }
    }
    return out;
  }

  private GpuPingPong workload(Fields w, Topology topology, Map<String, VmsSection.Vm> vms) {
    w.allowOnly("name", "ping", "pong", "via", "ping-to-pong", "pong-to-ping", "ram", "count", "compare-to");
    int before = file.problems.size();
    String name = w.string("name", true);
    if (name != null && !ScenarioFile.NAME.matcher(name).matches()) {
      w.error("name", "name '" + name + "' must be letters, digits, '_', '-' or '.' (it names figures)");
    }
    String ping = w.string("ping", true);
    String pong = w.string("pong", true);
    Via via = via(w);
    Fields ramOf = w.has("ram") && w.raw("ram").valueType() == com.typesafe.config.ConfigValueType.OBJECT
        ? w.object("ram", false) : null;
    boolean inVm = ramOf != null && ramOf.has("vm");
    if (inVm) {
      w.forbid("with ram.vm: each GPU addresses the guest's words through the lender's IOMMU map", "ping-to-pong",
          "pong-to-ping");
    }
    Long pingToPong = inVm ? null : w.address("ping-to-pong", true);
    Long pongToPing = inVm ? null : w.address("pong-to-ping", true);
    Integer count = w.integerIn("count", 1000, 1, GpuPingPong.MAX_COUNT);
    String compareTo = w.string("compare-to", false);
    Fields ram = via == Via.RAM ? w.object("ram", true) : null;
    if (via == Via.P2P && w.has("ram")) {
      w.error("ram", "ram = { ... } is for via = ram; this workload is via = p2p");
    }
    String host = null;
    Long[] words = new Long[4]; // to-pong, to-ping, pong-reads, ping-reads
    if (ram != null && inVm) {
      ram.allowOnly("vm", "to-pong", "to-ping", "host", "pong-reads", "ping-reads");
      ram.forbid("with vm: the VM's host holds the words, each GPU addresses them through the lender's IOMMU map",
          "host", "pong-reads", "ping-reads");
      words = new Long[] {ram.address("to-pong", true), ram.address("to-ping", true), null, null};
    } else if (ram != null) {
      ram.allowOnly("host", "vm", "to-pong", "to-ping", "pong-reads", "ping-reads");
      host = ram.string("host", true);
      words = new Long[] {ram.address("to-pong", true), ram.address("to-ping", true), ram.address("pong-reads", true),
          ram.address("ping-reads", true)};
    }
    if (ping != null && ping.equals(pong)) {
      w.error("pong", "pong=" + pong + " is ping too: the ping-pong needs two GPUs");
    }
    if (file.problems.size() != before || topology == null || via == null || (via == Via.RAM && ram == null)) {
      return null;
    }
    Routes r = new Routes(w, topology, ping, pong);
    if (!r.gpus()) {
      return null;
    }
    if (inVm) {
      // The guest's words: its RAM at the VM's base, each GPU's address for them the lender's IOMMU map.
      VmsSection.Vm vm = guestOf(ram, vms, ping, pong);
      if (vm == null) {
        return null;
      }
      try {
        host = vm.guest().host();
        pingToPong = vm.devices().get(ping).busAddress(words[0]);
        pongToPing = vm.devices().get(pong).busAddress(words[1]);
        words = new Long[] {vm.guest().hostAddress(words[0]), vm.guest().hostAddress(words[1]),
            vm.devices().get(pong).busAddress(words[0]), vm.devices().get(ping).busAddress(words[1])};
      } catch (IllegalArgumentException e) {
        ram.error(e.getMessage());
        return null;
      }
    }
    GpuPingPong spec;
    if (via == Via.P2P) {
      Long pongWaits = r.intoBar1("ping-to-pong", ping, pingToPong, pong);
      Long pingWaits = r.intoBar1("pong-to-ping", pong, pongToPing, ping);
      if (pongWaits == null || pingWaits == null) {
        return null;
      }
      spec = new GpuPingPong(name, ping, pong, via, pingToPong, pongToPing, pingWaits, pongWaits, null, 0, 0, count,
          compareTo, file.where(w));
    } else {
      if (!r.ramWords(ram, host, pingToPong, pongToPing, words)) {
        return null;
      }
      spec = new GpuPingPong(name, ping, pong, via, pingToPong, pongToPing, words[3], words[2], host, words[0],
          words[1], count, compareTo, file.where(w));
    }
    return spec;
  }

  /** The VM {@code ram.vm} names, with ping and pong passed through to it; null, reported, if not. */
  private static VmsSection.Vm guestOf(Fields ram, Map<String, VmsSection.Vm> vms, String ping, String pong) {
    String name = ram.string("vm", true);
    VmsSection.Vm vm = name == null ? null : vms.get(name);
    if (vm == null) {
      ram.error("vm", "vm=" + name + " is not a VM of this scenario's vms (VMs: " + String.join(", ", vms.keySet())
          + ")");
      return null;
    }
    for (String gpu : List.of(ping, pong)) {
      if (!vm.devices().containsKey(gpu)) {
        ram.error("vm", "vm=" + name + ": " + gpu + " is not passed through to it (devices: "
            + String.join(", ", vm.devices().keySet()) + ")");
        return null;
      }
    }
    return vm;
  }

  private Via via(Fields w) {
    String v = w.string("via", false);
    if (v == null) {
      return w.has("via") ? null : Via.P2P;
    }
    for (Via x : Via.values()) {
      if (x.label().equals(v.trim().toLowerCase(Locale.ROOT))) {
        return x;
      }
    }
    w.error("via", "via=" + v + " is not p2p (the counters in the GPUs' memory) or ram (in a host's RAM, polled)");
    return null;
  }

  /** The workload's addresses against the topology. */
  private static final class Routes {
    private final Fields w;
    private final Topology topology;
    private final String ping;
    private final String pong;
    private final RouteExplainer routes;

    Routes(Fields w, Topology topology, String ping, String pong) {
      this.w = w;
      this.topology = topology;
      this.ping = ping;
      this.pong = pong;
      this.routes = new RouteExplainer(topology);
    }

    /** Whether ping and pong are GPUs of the topology; reported if not. */
    boolean gpus() {
      boolean ok = true;
      for (String key : List.of("ping", "pong")) {
        String id = key.equals("ping") ? ping : pong;
        if (bar1(id) == null) {
          w.error(key, key + "=" + id + " is not an endpoint with device = gpu in " + topology.name() + " (GPUs: "
              + String.join(", ", topology.endpoints().stream().filter(e -> e.device() == DeviceKind.GPU)
              .map(EndpointSpec::id).toList()) + ")");
          ok = false;
        }
      }
      return ok;
    }

    private AddressRange bar1(String gpu) {
      return topology.endpoint(gpu).filter(e -> e.device() == DeviceKind.GPU && e.bars().size() >= 2)
          .map(e -> e.bars().get(1)).orElse(null);
    }

    /**
     * The word {@code to} waits on, as it addresses it: where a write of {@code from} to {@code
     * address} lands in {@code to}'s BAR1; null, reported, if it lands elsewhere.
     */
    Long intoBar1(String key, String from, long address, String to) {
      RouteExplanation r = routes.explain(from, address, false);
      AddressRange bar1 = bar1(to);
      long at = r.outcome().address();
      if (r.delivered() && to.equals(r.target()) && bar1.containsAll(at, 4) && at % 4 == 0 && address % 4 == 0) {
        return at;
      }
      w.error(key, key + "=" + Addresses.hex(address) + ": a write from " + from + " is " + r.ending()
          + "; via = p2p it must reach a dword of " + to + "'s BAR1 " + bar1);
      return null;
    }

    /** Via RAM: each word written by one GPU and read by the other at the same dword of the host's RAM. */
    boolean ramWords(Fields ram, String host, long pingToPong, long pongToPing, Long[] words) {
      Long toPong = words[0];
      Long toPing = words[1];
      boolean ok = true;
      if (topology.endpoint(host).filter(EndpointSpec::root).isEmpty()) {
        ram.error("host", "host=" + host + " is not a root endpoint of " + topology.name() + " (roots: "
            + String.join(", ", topology.endpoints().stream().filter(EndpointSpec::root).map(EndpointSpec::id).toList())
            + ")");
        return false;
      }
      for (int i = 0; i < 2; i++) {
        if (words[i] % 4 != 0) {
          ram.error(i == 0 ? "to-pong" : "to-ping", (i == 0 ? "to-pong=" : "to-ping=") + Addresses.hex(words[i])
              + " is not dword-aligned: the counter is a 4-byte word");
          ok = false;
        }
      }
      if (Math.abs(toPong - toPing) < 4) {
        ram.error("to-ping", "to-ping=" + Addresses.hex(toPing) + " overlaps to-pong=" + Addresses.hex(toPong)
            + ": each GPU needs its own word, else ping reads back its own counter");
        ok = false;
      }
      return ok
          & reaches(w, "ping-to-pong", ping, pingToPong, false, host, toPong, "to-pong")
          & reaches(ram, "pong-reads", pong, words[2], true, host, toPong, "to-pong")
          & reaches(w, "pong-to-ping", pong, pongToPing, false, host, toPing, "to-ping")
          & reaches(ram, "ping-reads", ping, words[3], true, host, toPing, "to-ping");
    }

    private boolean reaches(Fields where, String key, String from, long address, boolean read, String host,
        long hostWord, String wordKey) {
      RouteExplanation r = routes.explain(from, address, read);
      if (r.delivered() && host.equals(r.target()) && r.outcome().address() == hostWord) {
        return true;
      }
      where.error(key, key + "=" + Addresses.hex(address) + ": a " + (read ? "read" : "write") + " from " + from
          + " is " + r.ending() + "; it must reach " + host + " at ram." + wordKey + "=" + Addresses.hex(hostWord));
      return false;
    }
  }
}

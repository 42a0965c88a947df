package io.rackfabric.loadtests.scenario.language;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.cluster.node.NicNode;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.Problems;
import io.rackfabric.host.nic.NicSettings;
import io.rackfabric.host.nic.UdpFrames;
import java.util.ArrayList;
import java.util.List;

/**
 * A scenario's {@code nic-stream}: compute hosts sending UDP packets through the rack's NIC
 * during the run; and the check of a {@code from = [...]} list of compute hosts, which {@code
 * control-requests} shares.
 */
final class NicStreamSection {

  private NicStreamSection() {}

  /** {@code nic-stream { from = [ch1, ...], count = N, size = 64, interval = 1ms }}: null when not given. */
  static NicStream nicStream(Fields f, TopologyRef topology, Problems problems) {
    Fields n = f.object("nic-stream", false);
    if (n == null) {
      return null;
    }
    n.allowOnly("from", "count", "size", "interval");
    int before = problems.size();
    if (topology != null && NicNode.nicOf(topology.topology()).isEmpty()) {
      n.error("topology " + topology.topology().name() + " has no NIC: a nic-stream needs a management host"
          + " (global-memory.management-host) and an endpoint with the id " + NicNode.NIC_ID);
    }
    List<String> hosts = computeHosts(n, topology, problems);
    if (hosts.size() > NicSettings.MAX_VFS) {
      n.error("from", "from names " + hosts.size() + " hosts, more than the NIC's " + NicSettings.MAX_VFS + " VFs");
    }
    Integer count = n.integerIn("count", null, 1, NicStream.MAX_FRAMES);
    if (count == null && !n.has("count")) {
      n.error("count", "missing (required): packets each host sends");
    } else if (count != null && (long) count * hosts.size() > NicStream.MAX_FRAMES) {
      n.error("count", "count=" + count + " from " + hosts.size() + " hosts is " + (long) count * hosts.size()
          + " frames, more than the " + NicStream.MAX_FRAMES + " a run keeps (the receiver holds every arrival)");
    }
    Integer size = n.integer("size", TrafficSection.DEFAULT_SIZE);
    if (size != null && (size < UdpFrames.MIN_PAYLOAD || size > UdpFrames.MAX_PAYLOAD)) {
      n.error("size", "size=" + size + " not in [" + UdpFrames.MIN_PAYLOAD + "," + UdpFrames.MAX_PAYLOAD
          + "] (UDP payload bytes)");
    }
    Long interval = n.durationNs("interval", 1_000_000L);
    if (interval != null && interval < 1) {
      n.error("interval", "interval=" + interval + "ns must be above 0");
    }
    if (problems.size() != before || count == null || size == null || interval == null) {
      return null;
    }
    return new NicStream(hosts, count, size, interval);
  }

  /** The compute hosts a block's required {@code from = [...]} names, each once. */
  static List<String> computeHosts(Fields n, TopologyRef topology, Problems problems) {
    List<String> hosts = new ArrayList<>();
    List<String> computeHosts = topology == null || topology.topology().globalMemorySpec() == null ? List.of()
        : topology.topology().globalMemorySpec().computeHosts();
    ConfigList list = n.list("from", true);
    if (list == null) {
      return hosts;
    }
    for (int i = 0; i < list.size(); i++) {
      ConfigValue item = list.get(i);
      String key = n.key("from") + "[" + i + "]";
      if (item.valueType() != ConfigValueType.STRING) {
        problems.add(item.origin(), key, "expected a compute host's id, got " + Fields.describe(item));
        continue;
      }
      String host = ((String) item.unwrapped()).trim();
      if (topology != null && !computeHosts.contains(host)) {
        problems.add(item.origin(), key, "'" + host + "' is not a compute host of the rack (compute hosts: "
            + String.join(", ", computeHosts) + ")");
      } else if (hosts.contains(host)) {
        problems.add(item.origin(), key, "'" + host + "' is listed twice");
      } else {
        hosts.add(host);
      }
    }
    if (list.isEmpty()) {
      n.error("from", "from=[] names no compute host");
    }
    return hosts;
  }
}

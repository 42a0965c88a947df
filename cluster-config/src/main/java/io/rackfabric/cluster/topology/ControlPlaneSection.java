package io.rackfabric.cluster.topology;

import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * The optional top-level {@code control-plane} section: which root endpoint is the master
 * management host and which the backup. Read with the rest of the file, checked on the built
 * rack: both roots, linked to upstream ports of one switch chip, the master's in virtual switch 1
 * and the backup's in virtual switch 2 (the partition a take-over moves the rest of the chip into),
 * and the master the global-memory section's management host when both are given.
 */
final class ControlPlaneSection {

  static final String KEY = "control-plane";

  private final Fields at;
  private final String master;
  private final String backup;

  private ControlPlaneSection(Fields at, String master, String backup) {
    this.at = at;
    this.master = master;
    this.backup = backup;
  }

  /** The section as written, or null after a problem (reported to {@code problems}). */
  static ControlPlaneSection read(ConfigValue value, Problems problems) {
    if (value.valueType() != ConfigValueType.OBJECT) {
      problems.add(value.origin(), KEY, "expected an object { master = ..., backup = ... }, got "
          + Fields.describe(value));
      return null;
    }
    Fields f = new Fields((ConfigObject) value, KEY, problems);
    f.allowOnly("master", "backup");
    String master = f.string("master", true);
    String backup = f.string("backup", true);
    if (master == null || backup == null) {
      return null;
    }
    if (master.equals(backup)) {
      f.error("backup", "'" + backup + "' is also the master; the pair needs two management hosts");
      return null;
    }
    return new ControlPlaneSection(f, master, backup);
  }

  /** The pair on the built rack, or null after a problem (reported against the section). */
  ControlPlaneSpec check(Topology topology) {
    return pair(topology, master, backup, at::error);
  }

  /**
   * The pair {@code master}/{@code backup} on {@code topology}, or null after a problem, told to
   * {@code error} as (key, reason).
   */
  static ControlPlaneSpec pair(Topology topology, String master, String backup, BiConsumer<String, String> error) {
    Optional<PortConfig> masterPort = rootPort(topology, "master", master, 1, error);
    Optional<PortConfig> backupPort = rootPort(topology, "backup", backup, 2, error);
    if (masterPort.isEmpty() || backupPort.isEmpty()) {
      return null;
    }
    String masterSwitch = switchOf(topology, master);
    String backupSwitch = switchOf(topology, backup);
    if (!masterSwitch.equals(backupSwitch)) {
      error.accept("backup", "'" + backup + "' is linked to switch " + backupSwitch + ", the master '" + master
          + "' to " + masterSwitch + "; a take-over repartitions one chip, so both must be on it");
      return null;
    }
    GlobalMemorySpec memory = topology.globalMemorySpec();
    if (memory != null && memory.managementHost() != null && !memory.managementHost().equals(master)) {
      error.accept("master", "'" + master + "' is not global-memory.management-host '" + memory.managementHost()
          + "': the master runs the data-plane fail-over software too");
      return null;
    }
    List<Integer> fenced = new ArrayList<>();
    for (PortConfig p : topology.switchSpec(masterSwitch).orElseThrow().ports()) {
      if (p.number() != masterPort.get().number()) {
        fenced.add(p.number());
      }
    }
    return new ControlPlaneSpec(master, backup, masterSwitch, masterPort.get().name(), fenced);
  }

  /** The upstream port {@code id} is linked to, in virtual switch {@code vs}; empty after a problem. */
  private static Optional<PortConfig> rootPort(Topology topology, String key, String id, int vs,
      BiConsumer<String, String> error) {
    Optional<EndpointSpec> ep = topology.endpoint(id);
    if (ep.isEmpty()) {
      error.accept(key, "'" + id + "' names no endpoint (endpoints: "
          + String.join(", ", topology.endpoints().stream().map(EndpointSpec::id).toList()) + ")");
      return Optional.empty();
    }
    if (!ep.get().root()) {
      error.accept(key, "'" + id + "' is not a root (root = true): a management host is a root complex");
      return Optional.empty();
    }
    String other = topology.linkAt(id).map(l -> l.other(id)).orElse(null);
    Optional<PortConfig> port = other == null || LinkSpec.portOf(other) == null ? Optional.empty()
        : topology.switchSpec(LinkSpec.componentOf(other)).flatMap(s -> s.port(LinkSpec.portOf(other)));
    if (port.isEmpty()) {
      error.accept(key, "'" + id + "' is not linked to a switch port");
      return Optional.empty();
    }
    PortConfig p = port.get();
    if (p.role() != PortRole.UPSTREAM || p.virtualSwitch() != vs) {
      error.accept(key, "'" + id + "' is linked to " + other + " (" + p.role().name().toLowerCase()
          + ", virtual-switch = " + p.virtualSwitch() + "); the " + key + " must be the root of virtual switch "
          + vs + ": an upstream port with virtual-switch = " + vs);
      return Optional.empty();
    }
    return port;
  }

  private static String switchOf(Topology topology, String id) {
    return LinkSpec.componentOf(topology.linkAt(id).orElseThrow().other(id));
  }
}

package io.rackfabric.loadtests.scenario.language;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.cluster.lending.GuestVm;
import io.rackfabric.cluster.lending.LoanPlanException;
import io.rackfabric.cluster.lending.VmPassThrough;
import io.rackfabric.cluster.lending.VmPassThrough.GuestMapping;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario's {@code vms = [ { name, host, memory, base, devices = [...], guest = [...] } ]}: VMs on the
 * topology's hosts (Device Lending, section 5), each with its guest-physical memory at {@code base}
 * in its host's RAM and the devices passed through to it, each mapped for it in its lender's IOMMU
 * ({@link VmPassThrough}). A VM whose memory does not fit its host's RAM, or a device's DMA window
 * toward that host, is reported with the values. What a VM's guest does to its devices, and the
 * loans that follow, is {@link GuestSection}'s.
 */
final class VmsSection {

  static final String KEY = "vms";

  /** One VM of the scenario and its devices' mappings, by device id. */
  record Vm(GuestVm guest, Map<String, GuestMapping> devices) {

    Vm {
      devices = Map.copyOf(devices);
    }
  }

  private VmsSection() {}

  /** The VMs by name; those with problems are left out, the problems reported. */
  static Map<String, Vm> parse(Fields f, TopologyRef topology) {
    Map<String, Vm> out = new LinkedHashMap<>();
    for (Fields item : f.objects(KEY, false)) {
      item.allowOnly("name", "host", "memory", "base", "devices", GuestSection.KEY);
      String name = item.string("name", true);
      String host = item.string("host", true);
      Long memory = item.address("memory", true);
      Long base = item.address("base", true);
      List<String> devices = devices(item);
      if (name != null && out.containsKey(name)) {
        item.error("name", "'" + name + "' is the name of another VM");
        continue;
      }
      if (name == null || host == null || memory == null || base == null || devices == null || topology == null) {
        continue;
      }
      Vm vm = vm(item, topology.topology(), name, host, memory, base, devices);
      if (vm != null) {
        out.put(name, vm);
      }
    }
    return out;
  }

  private static Vm vm(Fields item, Topology topology, String name, String host, long memory, long base,
      List<String> devices) {
    GuestVm guest;
    try {
      guest = new GuestVm(name, host, memory, base);
    } catch (IllegalArgumentException e) {
      item.error(e.getMessage());
      return null;
    }
    Map<String, GuestMapping> mappings = new LinkedHashMap<>();
    for (String device : devices) {
      try {
        mappings.put(device, VmPassThrough.map(topology, guest, device));
      } catch (LoanPlanException e) {
        item.error("devices", e.getMessage());
        return null;
      }
    }
    return new Vm(guest, mappings);
  }

  private static List<String> devices(Fields item) {
    ConfigList list = item.list("devices", true);
    if (list == null) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i).valueType() != ConfigValueType.STRING) {
        item.error("devices", "devices[" + i + "] is " + Fields.describe(list.get(i)) + ", not a device's id");
        return null;
      }
      String id = ((String) list.get(i).unwrapped()).trim();
      if (out.contains(id)) {
        item.error("devices", "devices lists " + id + " twice");
        return null;
      }
      out.add(id);
    }
    if (out.isEmpty()) {
      item.error("devices", "devices is empty: a VM here exists to have devices passed through to it");
      return null;
    }
    return out;
  }
}

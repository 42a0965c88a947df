package io.rackfabric.cluster.topology;

import static io.rackfabric.cluster.topology.ProblemText.hint;
import static io.rackfabric.cluster.topology.ProblemText.line;
import static io.rackfabric.cluster.topology.ProblemText.range;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.cluster.topology.RackDraft.EndpointDraft;
import io.rackfabric.cluster.topology.RackDraft.LinkDraft;
import io.rackfabric.cluster.topology.RackDraft.PortDraft;
import io.rackfabric.cluster.topology.RackDraft.SwitchDraft;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.MemorySizes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The optional top-level {@code global-memory} section, read after the rack's second pass because
 * it refers to the rack's endpoints, domains and NTB ports. Which NTB port is which CH's is
 * matched by {@link ComputeHostNtbPorts}.
 */
final class GlobalMemorySection {

  static final String KEY = "global-memory";

  private final Problems problems;
  private final RackDraft draft;
  private final PcieDomains domains;
  private final Map<String, LinkDraft> byEnd;
  /** The valid section, or null (absent or with problems). */
  private GlobalMemorySpec spec;
  private Fields at;
  /** Each compute host's NTB port per plane, {@code switch.port}: [ch - 1][plane], once matched. */
  private String[][] ntbPorts;

  private GlobalMemorySection(Problems problems, RackDraft draft, PcieDomains domains,
      Map<String, LinkDraft> byEnd) {
    this.problems = problems;
    this.draft = draft;
    this.domains = domains;
    this.byEnd = byEnd;
  }

  /** Reads and checks the section against the rack; problems go to {@code problems}. */
  static GlobalMemorySection read(ConfigValue value, Problems problems, RackDraft draft, PcieDomains domains,
      Map<String, LinkDraft> byEnd) {
    GlobalMemorySection section = new GlobalMemorySection(problems, draft, domains, byEnd);
    section.parse(value);
    return section;
  }

  /** The section, or null when it has problems. */
  GlobalMemorySpec spec() {
    return spec;
  }

  /** Where the section is, to report later findings against. */
  Fields at() {
    return at;
  }

  /** Each CH's NTB port per plane, [ch - 1][plane]; null unless they were all matched. */
  String[][] ntbPorts() {
    return ntbPorts;
  }

  /**
   * The optional top-level {@code global-memory} section (Ladon sections 4.1-4.2): the layout's
   * numbers, reported against the section's line when they do not fit; its compute hosts, which
   * must be root endpoints of the rack; each CH's memory inside its local subspace; and the NTB
   * ports linked to each CH's domain programmed as the layout says.
   */
  private void parse(ConfigValue value) {
    if (value.valueType() != ConfigValueType.OBJECT) {
      problems.add(value.origin(), KEY,
          "expected an object { ... }, got " + Fields.describe(value));
      return;
    }
    Fields f = new Fields((ConfigObject) value, KEY, problems);
    f.allowOnly("local-subspace", "pms2-base", "address-bits", "compute-hosts", "management-host",
        "control-page");
    Long local = f.has("local-subspace") ? f.address("local-subspace", true)
        : Long.valueOf(GlobalMemoryLayout.PAPER_LOCAL_SUBSPACE);
    Long pms2 = f.has("pms2-base") ? f.address("pms2-base", true)
        : Long.valueOf(GlobalMemoryLayout.PAPER_PMS2_BASE);
    Integer bits = f.integer("address-bits", GlobalMemoryLayout.DEFAULT_ADDRESS_BITS);
    List<String> hosts = computeHosts(f);
    if (local == null || pms2 == null || bits == null || hosts == null) {
      return;
    }
    GlobalMemoryLayout layout;
    try {
      layout = GlobalMemoryLayout.create(local, hosts.size(), pms2, bits);
    } catch (IllegalArgumentException e) {
      f.error(e.getMessage());
      return;
    }
    List<EndpointDraft> chs = new ArrayList<>();
    for (String id : hosts) {
      chs.add(draft.endpointDraft(id));
    }
    if (chs.contains(null)) {
      return; // reported by computeHosts
    }
    checkLocalSubspaces(layout, chs, f);
    String mh = managementHost(f, hosts);
    boolean pageGiven = f.has("control-page");
    Long controlPage = pageGiven ? f.address("control-page", true)
        : Long.valueOf(GlobalMemorySpec.DEFAULT_CONTROL_PAGE);
    if (controlPage == null) {
      return;
    }
    // Only the fail-over software uses the page, but a page written down is checked all the same.
    boolean pageOk = !pageGiven && mh == null || checkControlPage(layout, chs, mh, controlPage, f);
    if (mh != null && pageOk) {
      try {
        new LadonAddresses(layout, controlPage);
      } catch (IllegalArgumentException e) {
        f.error("management-host", "data-plane fail-over cannot run on this layout: " + e.getMessage());
      }
    }
    if (problems.isEmpty()) {
      // A broken link or port elsewhere would show up here again as "no primary NTB port";
      // the ports are checked against the layout once the rack itself is sound.
      ntbPorts = ComputeHostNtbPorts.match(layout, chs, f, draft, domains, byEnd);
    }
    spec = new GlobalMemorySpec(layout, hosts, mh, controlPage);
    at = f;
  }

  /**
   * Ladon's control page, at the same local address in every host (Ladon section 5.3): a 4KiB-aligned
   * page of the local subspace, in the memory of the MH and of every CH, and claimed by no
   * downstream port's window in that host's domain, which would take the protocol's words
   * arriving from the fabric before the root does. Reported at {@code control-page}, or at the
   * section when the default is used.
   */
  private boolean checkControlPage(GlobalMemoryLayout layout, List<EndpointDraft> chs, String mh, long page,
      Fields f) {
    String value = "control-page=" + MemorySizes.hex(page) + (f.has("control-page") ? "" : " (the default)");
    if (page % LadonAddresses.PAGE != 0) {
      f.error("control-page", value + " is not 4KiB-aligned");
      return false;
    }
    AddressRange range = AddressRange.ofSize(page, LadonAddresses.PAGE);
    if (!layout.chLocal().covers(range)) {
      f.error("control-page", value + ": the page " + range(range) + " is not inside the local subspace [0, "
          + MemorySizes.size(layout.localSubspace()) + ")");
      return false;
    }
    List<EndpointDraft> hosts = new ArrayList<>();
    if (mh != null) {
      hosts.add(draft.endpointDraft(mh));
    }
    hosts.addAll(chs);
    boolean ok = true;
    for (EndpointDraft host : hosts) {
      String who = host.id.equals(mh) ? "the management host " + host.id
          : "compute host " + host.id + " (CH" + (chs.indexOf(host) + 1) + ")";
      if (host.bars.stream().noneMatch(b -> b.covers(range))) {
        f.error("control-page", value + ": the page " + range(range) + " is not in the memory of " + who
            + " (its BARs: " + (host.bars.isEmpty() ? "none" : host.bars.stream().map(ProblemText::range)
                .collect(Collectors.joining(", "))) + ")");
        ok = false;
      }
      String domain = domains.find("ep:" + host.id);
      for (SwitchDraft s : draft.switches) {
        for (PortDraft p : s.ports.values()) {
          if (p.role != PortRole.DOWNSTREAM || p.virtualSwitch == null
              || !domains.find("vs:" + s.id + ":" + p.virtualSwitch).equals(domain)) {
            continue;
          }
          for (String key : List.of("memory", "prefetchable")) {
            AddressRange window = key.equals("memory") ? p.memory : p.prefetchable;
            if (window != null && window.overlaps(range)) {
              p.at.error(key, "window " + range(window) + " of " + s.id + "." + p.name + " overlaps the control page "
                  + range(range) + " of " + who + " (" + KEY + ", line " + line(f) + "): the"
                  + " fail-over words sent to the host would go down this port instead");
              ok = false;
            }
          }
        }
      }
    }
    return ok;
  }

  /** The optional management-host: a root endpoint that is not a compute host. */
  private String managementHost(Fields f, List<String> hosts) {
    if (!f.has("management-host")) {
      return null;
    }
    String id = f.string("management-host", true);
    if (id == null) {
      return null;
    }
    EndpointDraft ep = draft.endpointDraft(id);
    if (ep == null) {
      f.error("management-host", "'" + id + "' names no endpoint (endpoints: "
          + hint(draft.endpoints.stream().map(e -> e.id).toList()) + ")");
      return null;
    }
    if (hosts.contains(id)) {
      f.error("management-host", "'" + id + "' is also a compute host");
      return null;
    }
    if (ep.root != null && !ep.root) {
      f.error("management-host", "'" + id + "' is not a root (root = true); the MH is the root"
          + " complex of the rack's domain");
      return null;
    }
    return id;
  }

  /** The compute-hosts list: root endpoints of the rack, each once. Null after a problem. */
  private List<String> computeHosts(Fields f) {
    ConfigList list = f.list("compute-hosts", true);
    if (list == null) {
      return null;
    }
    List<String> ids = new ArrayList<>();
    boolean ok = true;
    for (int i = 0; i < list.size(); i++) {
      ConfigValue item = list.get(i);
      String key = f.key("compute-hosts") + "[" + i + "]";
      if (item.valueType() != ConfigValueType.STRING) {
        problems.add(item.origin(), key, "expected an endpoint id, got " + Fields.describe(item));
        ok = false;
        continue;
      }
      String id = ((String) item.unwrapped()).trim();
      EndpointDraft ep = draft.endpointDraft(id);
      if (ep == null) {
        problems.add(item.origin(), key, draft.switchDraft(id) != null
            ? "'" + id + "' is a switch; a compute host is a root endpoint"
            : draft.declared.containsKey(id)
                ? "'" + id + "' is declared but has errors of its own (see above)"
                : "'" + id + "' names no endpoint (endpoints: "
                    + hint(draft.endpoints.stream().map(e -> e.id).toList()) + ")");
        ok = false;
      } else if (ids.contains(id)) {
        problems.add(item.origin(), key, "'" + id + "' is listed twice (as compute host "
            + (ids.indexOf(id) + 1) + " and " + (i + 1) + ")");
        ok = false;
      } else if (ep.root != null && !ep.root) {
        problems.add(item.origin(), key, "'" + id + "' is not a root (root = true); a compute host"
            + " is the root complex of its own domain");
        ok = false;
      }
      ids.add(id);
    }
    return ok ? ids : null;
  }

  /** A CH's memory and MMIO are its local subspace [0, L): its BARs must lie there. */
  private void checkLocalSubspaces(GlobalMemoryLayout layout, List<EndpointDraft> chs, Fields f) {
    AddressRange local = layout.chLocal();
    for (int i = 0; i < chs.size(); i++) {
      EndpointDraft ch = chs.get(i);
      for (int b = 0; b < ch.bars.size(); b++) {
        if (!local.covers(ch.bars.get(b))) {
          ch.barAt.get(b).error("base", "BAR" + b + " " + ch.bars.get(b) + " of compute host "
              + ch.id + " (CH" + (i + 1) + ") is outside its local subspace [0, "
              + MemorySizes.size(layout.localSubspace()) + ") of " + KEY + " (line "
              + line(f) + ")");
        }
      }
    }
  }
}

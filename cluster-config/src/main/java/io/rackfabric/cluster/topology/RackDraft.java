package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.routing.MulticastGroup;
import io.rackfabric.fabric.routing.PortRole;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the first pass read from the {@code rack} section, before any cross-reference is resolved:
 * mutable drafts rather than specs, because the second pass fills in what depends on attachment
 * (an endpoint's bdf) and a draft with problems must still be there to say "declared but has
 * errors" instead of "unknown".
 */
final class RackDraft {

  record NodeDraft(NodeSpec spec, Fields at) {}

  static final class PortDraft {
    String name;
    Integer number;
    PortRole role;
    Integer virtualSwitch;
    int[] buses;
    AddressRange memory;
    AddressRange prefetchable;
    Integer virtualBdf;
    boolean acsRedirect;
    final List<NtbBar> linkBars = new ArrayList<>();
    final List<NtbBar> virtualBars = new ArrayList<>();
    final List<Claim> claims = new ArrayList<>();
    Fields at;
  }

  /** An address window a port claims in its switch, kept with where it was written. */
  record Claim(String port, String what, AddressRange range, Fields at, String key) {}

  static final class SwitchDraft {
    String id;
    String node;
    final Map<String, PortDraft> ports = new LinkedHashMap<>();
    final List<MulticastGroup> multicast = new ArrayList<>();
    Fields at;
  }

  static final class EndpointDraft {
    String id;
    String node;
    Integer bdf;
    boolean bdfGiven;
    Boolean root;
    boolean relay;
    DeviceKind device = DeviceKind.MEMORY;
    final List<AddressRange> bars = new ArrayList<>();
    final List<Fields> barAt = new ArrayList<>();
    Fields at;
  }

  static final class LinkDraft {
    String a;
    String b;
    boolean aValid;
    boolean bValid;
    LinkParameters params;
    Fields at;
  }

  final Map<String, NodeDraft> nodes = new LinkedHashMap<>();
  final List<SwitchDraft> switches = new ArrayList<>();
  final List<EndpointDraft> endpoints = new ArrayList<>();
  final List<LinkDraft> links = new ArrayList<>();
  /** Every declared component id, valid or not, with where it was declared. */
  final Map<String, Fields> declared = new LinkedHashMap<>();

  SwitchDraft switchDraft(String id) {
    for (SwitchDraft s : switches) {
      if (s.id.equals(id)) {
        return s;
      }
    }
    return null;
  }

  EndpointDraft endpointDraft(String id) {
    for (EndpointDraft e : endpoints) {
      if (e.id.equals(id)) {
        return e;
      }
    }
    return null;
  }

  PortDraft portDraft(String end) {
    String port = LinkSpec.portOf(end);
    SwitchDraft s = switchDraft(LinkSpec.componentOf(end));
    return s == null || port == null ? null : s.ports.get(port);
  }

  static String otherEnd(LinkDraft link, String end) {
    return end.equals(link.a) ? link.b : link.a;
  }
}

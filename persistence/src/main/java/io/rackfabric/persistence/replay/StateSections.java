package io.rackfabric.persistence.replay;

import io.rackfabric.persistence.controller.ControllerSnapshot;
import io.rackfabric.persistence.controller.ControllerState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The controller state as the replay debugger shows and compares it: its snapshot form
 * ({@link ControllerSnapshot}) cut into sections of entries, each under a key made of the
 * components that identify it (a host by name, an IOMMU entry by host, requester and page).
 */
final class StateSections {

  /**
   * @param keyComponents the components of the entries' records that make their keys, empty for
   *     the scalar section "controller", whose entries are plain values
   * @param entries key -> record (or value), in the state's own order
   */
  record Section(String name, List<String> keyComponents, Map<String, Object> entries) {}

  private StateSections() {}

  static List<Section> of(ControllerState state) {
    ControllerSnapshot s = state.toSnapshot();
    Map<String, Object> controller = new LinkedHashMap<>();
    controller.put("modelNow", s.modelNow());
    controller.put("enumeratedRoot", s.enumeratedRoot());
    controller.put("templateAt", s.templateAt() < 0 ? null : s.templateAt());
    controller.put("steppedDown", s.steppedDown());
    return List.of(
        new Section("controller", List.of(), controller),
        keyed("hosts", s.hosts(), "host"),
        keyed("devices", s.devices(), "device"),
        keyed("pfDrivers", s.drivers(), "nic"),
        keyed("vfAssignments", s.vfs(), "nic", "vf"),
        keyed("iommu", s.iommu(), "host", "requester", "pageAddress"),
        keyed("windows", s.windows(), "ntb", "bar"),
        keyed("requesterIds", s.requesterIds(), "ntb", "direction", "index"),
        keyed("clientRequests", s.requests(), "client"),
        keyed("offers", s.offers(), "device"),
        keyed("loans", s.loans(), "device"),
        keyed("dmaMappings", s.dmaMappings(), "device", "offset"),
        keyed("msiPaths", s.msiPaths(), "device"));
  }

  private static Section keyed(String name, List<? extends Record> records, String... key) {
    List<String> keyComponents = List.of(key);
    Map<String, Object> entries = new LinkedHashMap<>();
    records.forEach(r -> entries.put(Values.key(r, keyComponents), r));
    return new Section(name, keyComponents, entries);
  }

  /** An entry's rendering without its key: a record's other components, or the plain value. */
  static String text(Section section, String key, Object entry) {
    return entry instanceof Record r ? Values.fields(r, section.keyComponents())
        : Values.text(key, entry);
  }
}

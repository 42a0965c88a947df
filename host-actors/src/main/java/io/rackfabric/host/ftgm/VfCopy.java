package io.rackfabric.host.ftgm;

import io.rackfabric.host.nic.SriovNic;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The PF driver's copy of the NIC's VF table on the management host, and which of its VFs a
 * recovery restores: all of them, or, with a control plane, only those the controller's state
 * still lends. Plain bookkeeping for {@link NicFaultDaemon}; not thread-safe.
 */
final class VfCopy {

  private final Map<Integer, NicFaultDaemon.OpenVf> vfs = new TreeMap<>();
  /** VFs the controller lends at this recovery; null without a control plane (the copy only). */
  private Set<Integer> lent;

  void open(NicFaultDaemon.OpenVf vf) {
    vfs.put(vf.vf(), vf);
  }

  NicFaultDaemon.OpenVf get(int vf) {
    return vfs.get(vf);
  }

  /** This recovery restores every VF of the copy. */
  void restoreAll() {
    lent = null;
  }

  /** This recovery restores only the VFs of the copy the controller lends. */
  void restoreLent(Set<Integer> lentVfs) {
    lent = Set.copyOf(lentVfs);
  }

  /** The VFs restored and told FAULT_DETECTED, in VF order. */
  List<NicFaultDaemon.OpenVf> restored() {
    return vfs.values().stream().filter(v -> lent == null || lent.contains(v.vf())).toList();
  }

  /** The card's VF table as restored. */
  List<SriovNic.VfEntry> table() {
    return restored().stream().map(v -> new SriovNic.VfEntry(v.vf(), v.owner0(), v.owner1())).toList();
  }

  /** What a restore wrote, for the record. */
  String describe() {
    return restored().size() + " VFs from " + (lent == null ? "the MH's copy" : "the controller's lent VFs");
  }
}

package io.rackfabric.cluster.topology;

import java.util.List;

/**
 * The management-host pair of Ladon section 4.3: the master (MMH), root of virtual switch 1, runs the
 * event-sourced controller and replicates every change to the backup (BMH), root of virtual
 * switch 2, which takes over by fencing the master: every port of {@code fencingSwitch} but
 * {@code masterPort} moves to virtual switch 2.
 *
 * @param masterPort the fencing switch's port the master is linked to, kept in virtual switch 1
 * @param fencedPorts the fencing switch's other ports, by number: what a take-over moves
 */
public record ControlPlaneSpec(String master, String backup, String fencingSwitch, String masterPort,
    List<Integer> fencedPorts) {

  public ControlPlaneSpec {
    fencedPorts = List.copyOf(fencedPorts);
  }
}

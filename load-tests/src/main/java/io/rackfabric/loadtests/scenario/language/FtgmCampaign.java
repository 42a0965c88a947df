package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.host.ftgm.FaultSpec;
import io.rackfabric.host.nic.McpMode;
import java.util.List;

/**
 * A scenario's {@code ftgm-campaign}: fault injection into the firmware of one of the rack's NICs
 * (FTGM sections 2 and 5), run in the runner's own JVM on the NIC's model testbed without
 * starting the rack. Each mode runs the same campaign of {@code spec.faults()} faults under
 * steady traffic; the recovery time is also measured once per number of open ports, and the
 * normal-operation overhead of FTGM against GM.
 *
 * @param spec the NIC, the category rates, the number of faults and the campaign's seed (the
 *     scenario's)
 * @param modes the protocols the campaign runs under, in order (the baseline first)
 * @param ports open ports on each side of a campaign testbed
 * @param messages messages each port sends each way in a campaign testbed
 * @param messageIntervalNs model time between two messages of one port
 * @param recoveryPorts open-port counts at which one hang's recovery is measured (Table 3)
 * @param overheadMessages messages of the fault-free overhead run (Table 2)
 * @param parallel modes run at the same time, each on its own thread
 * @param where the file and line of the section
 */
public record FtgmCampaign(
    FaultSpec spec,
    List<McpMode> modes,
    int ports,
    int messages,
    long messageIntervalNs,
    List<Integer> recoveryPorts,
    int overheadMessages,
    int parallel,
    String where) {

  /** The figure producer a scenario with a campaign gets when it names none. */
  public static final String FIGURES = "ftgm-campaign";

  public FtgmCampaign {
    modes = List.copyOf(modes);
    recoveryPorts = List.copyOf(recoveryPorts);
  }
}

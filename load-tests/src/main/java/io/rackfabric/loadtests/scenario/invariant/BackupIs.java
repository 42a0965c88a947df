package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.loadtests.scenario.api.ControlPlaneTakeovers;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.ParamType;
import java.util.List;

/**
 * {@code backup-is}: at the end of the run management host {@code host} is the backup of the
 * other, which is master, and holds every event the master persisted (the same last sequence
 * number): the pair is redundant, as after a rejoin.
 */
public final class BackupIs implements InvariantType {

  @Override
  public String name() {
    return "backup-is";
  }

  @Override
  public String summary() {
    return "at the end management host HOST is the backup of the master and holds its last event";
  }

  @Override
  public List<Param> params() {
    return List.of(Param.required("host", ParamType.TEXT, "the management host that must be the backup at the end"));
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) throws Exception {
    String host = invariant.params().text("host");
    return MasterIs.judge(run, cp -> {
      List<ControlPlaneHost.HostStatus> statuses = cp.hosts().stream().map(ControlPlaneTakeovers.Host::status).toList();
      var backup = statuses.stream().filter(s -> s.host().equals(host)).findFirst();
      var masters = statuses.stream().filter(s -> s.role() == ControlPlaneHost.Role.MASTER).toList();
      return backup.isPresent() && backup.get().role() == ControlPlaneHost.Role.BACKUP && masters.size() == 1
          && masters.get(0).lastSeqNr() == backup.get().lastSeqNr();
    });
  }
}

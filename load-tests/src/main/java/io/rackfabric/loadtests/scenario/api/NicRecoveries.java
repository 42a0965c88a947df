package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.host.ftgm.NicFaultDaemon;
import io.rackfabric.loadtests.harness.Asks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The NIC recoveries of a run, read from the fault-tolerance daemon of each NIC a {@code nic-hang}
 * fault hung (the rack is still up while invariants and figures are evaluated). A recovery still
 * under way is waited for, up to the run's settle time.
 */
public final class NicRecoveries {

  private static final Duration ASK = Duration.ofSeconds(10);
  private static final long POLL_MS = 50;

  private NicRecoveries() {}

  /** The NICs {@code nic-hang} faults hung in this run, in order. */
  public static Set<String> hungNics(RunResult run) {
    Set<String> nics = new LinkedHashSet<>();
    for (RunResult.AppliedFault f : run.faults()) {
      if ("nic-hang".equals(f.spec().kind())) {
        nics.add(f.spec().target());
      }
    }
    return nics;
  }

  /** Hangs applied to {@code nic}. */
  public static long hangs(RunResult run, String nic) {
    return run.faults().stream().filter(f -> "nic-hang".equals(f.spec().kind()) && nic.equals(f.spec().target()))
        .count();
  }

  /** Each hung NIC's daemon record, once it has finished what it started (or the settle time ran out). */
  public static List<NicFaultDaemon.NicRecoveries> read(RunResult run) throws Exception {
    List<NicFaultDaemon.NicRecoveries> out = new ArrayList<>();
    if (run.rack() == null) {
      return out;
    }
    for (String nic : hungNics(run)) {
      var daemon = Asks.find(run.rack().system(), ComponentKeys.nicDaemon(nic), ASK);
      long deadline = System.nanoTime() + run.scenario().run().settleNs();
      while (true) {
        NicFaultDaemon.NicRecoveries r = Asks.<NicFaultDaemon.Command, NicFaultDaemon.NicRecoveries>ask(
            run.rack().system(), daemon, NicFaultDaemon.GetRecoveries::new, ASK);
        if (!r.recovering() || System.nanoTime() > deadline) {
          out.add(r);
          break;
        }
        Thread.sleep(POLL_MS); // the daemon's progress answers nobody
      }
    }
    return out;
  }
}

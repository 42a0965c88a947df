package io.rackfabric.loadtests.scenario.ftgm;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.loadtests.scenario.language.FtgmCampaign;
import io.rackfabric.host.ftgm.FaultOutcome;
import io.rackfabric.host.ftgm.FaultSpec;
import io.rackfabric.host.ftgm.OutcomeTable;
import io.rackfabric.host.ftgm.RecoveryBreakdown;
import io.rackfabric.loadtests.scenario.api.FtgmCampaignResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code ftgm_campaign} section of a run's JSON result: the campaign's parameters (and the
 * firmware settings it ran with), each mode's outcome table with the faults that broke delivery
 * and their replay lines, the recoveries per number of open ports, the overhead, and the events
 * file ({@link FtgmEventLog}) with how many events it holds.
 */
public final class FtgmCampaignJson {

  private FtgmCampaignJson() {}

  public static Map<String, Object> of(FtgmCampaignResult r) {
    FtgmCampaign c = r.campaign();
    Map<String, Object> m = new LinkedHashMap<>();
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("nic", c.spec().nic());
    p.put("faults", c.spec().faults());
    p.put("seed", c.spec().seed());
    p.put("modes", c.modes().stream().map(x -> x.name().toLowerCase(Locale.ROOT)).toList());
    Map<String, Object> rates = new LinkedHashMap<>();
    for (FaultSpec.Rate rate : c.spec().rates()) {
      rates.put(rate.category().key(), rate.rate());
    }
    p.put("rates", rates);
    p.put("ports", c.ports());
    p.put("messages", c.messages());
    p.put("message_interval_ns_model", c.messageIntervalNs());
    p.put("recovery_ports", c.recoveryPorts());
    p.put("overhead_messages", c.overheadMessages());
    p.put("parallel", c.parallel());
    p.put("where", c.where());
    p.put("settings", sorted(ConfigFactory.load().getConfig("rackfabric.host.ftgm").root().unwrapped()));
    m.put("parameters", p);
    List<Object> modes = new ArrayList<>();
    long events = 0;
    for (FtgmCampaignResult.ModeRun run : r.modes()) {
      OutcomeTable t = run.table();
      Map<String, Object> mm = new LinkedHashMap<>();
      mm.put("mode", run.mode().name().toLowerCase(Locale.ROOT));
      mm.put("faults", t.faults());
      List<Object> rows = new ArrayList<>();
      for (OutcomeTable.Row row : t.rows()) {
        Map<String, Object> rm = new LinkedHashMap<>();
        rm.put("category", row.category().key());
        rm.put("injections", row.injections());
        rm.put("percent", row.percent());
        rm.put("hangs", row.hangs());
        rm.put("detected", row.detected());
        rm.put("recovered", row.recovered());
        rm.put("lost", row.lost());
        rm.put("duplicated", row.duplicated());
        rm.put("out_of_order", row.outOfOrder());
        rows.add(rm);
      }
      mm.put("table", rows);
      mm.put("hangs", t.hangs());
      mm.put("detected", t.detected());
      mm.put("recovered", t.recovered());
      mm.put("lost", t.lost());
      mm.put("duplicated", t.duplicated());
      mm.put("out_of_order", t.outOfOrder());
      mm.put("wall_s", run.wallNanos() / 1e9);
      List<Object> broken = new ArrayList<>();
      for (FaultOutcome o : FtgmCampaignResult.broken(t)) {
        Map<String, Object> bm = new LinkedHashMap<>();
        bm.put("fault", o.index());
        bm.put("seed", o.seed());
        bm.put("category", o.category().key());
        bm.put("point", o.point().name().toLowerCase(Locale.ROOT));
        bm.put("detected", o.detected());
        bm.put("recovered", o.recovered());
        bm.put("lost", o.lost());
        bm.put("duplicated", o.duplicated());
        bm.put("out_of_order", o.outOfOrder());
        bm.put("replay", r.replayLine(run.mode(), o));
        broken.add(bm);
      }
      mm.put("faults_breaking_delivery", broken);
      modes.add(mm);
      events += t.outcomes().stream().mapToLong(o -> o.events().size()).sum();
    }
    m.put("modes", modes);
    List<Object> byPorts = new ArrayList<>();
    for (RecoveryBreakdown b : r.byPorts()) {
      Map<String, Object> bm = new LinkedHashMap<>();
      bm.put("open_ports", b.openPorts());
      bm.put("detection_ns_model", b.detectionNs());
      bm.put("daemon_ns_model", b.daemonNs());
      bm.put("per_process_ns_model", b.perProcessNs());
      bm.put("total_ns_model", b.totalNs());
      byPorts.add(bm);
    }
    m.put("recovery_by_ports", byPorts);
    m.put("events_file", r.eventsFile().toString());
    m.put("events", events);
    m.put("wall_s", r.wallNanos() / 1e9);
    return m;
  }

  private static Object sorted(Object v) {
    if (v instanceof Map<?, ?> map) {
      Map<String, Object> out = new TreeMap<>();
      map.forEach((k, x) -> out.put(String.valueOf(k), sorted(x)));
      return out;
    }
    return v;
  }
}

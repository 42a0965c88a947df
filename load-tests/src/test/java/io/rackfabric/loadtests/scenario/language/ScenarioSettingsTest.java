package io.rackfabric.loadtests.scenario.language;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ScenarioSettingsTest {

  @Test
  void shouldKeepTheOrderAndTheLaterValueWhenAFlagRepeatsAKey() {
    Map<String, String> flags = ScenarioSettings.parseFlags(List.of("rackfabric.a=1", "rackfabric.b = 2ms",
        "rackfabric.a=3"));
    assertEquals(List.of("rackfabric.b", "rackfabric.a"), List.copyOf(flags.keySet()));
    assertEquals("3", flags.get("rackfabric.a"));
    assertEquals("2ms", flags.get("rackfabric.b"));
  }

  @Test
  void shouldRefuseAFlagWithoutAnEqualsSignNamingIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ScenarioSettings.parseFlags(List.of("rackfabric.fabric.max-payload")));
    assertTrue(e.getMessage().startsWith("--set rackfabric.fabric.max-payload is not KEY=VALUE"), e.getMessage());
  }

  @Test
  void shouldAcceptAKeyOfAReferenceConf() {
    assertEquals(Optional.empty(), ScenarioSettings.keyProblem("rackfabric.fabric.switch-latency"));
    assertTrue(ScenarioSettings.knownKeys().contains("rackfabric.host.controlplane.heartbeat-interval"));
  }

  @Test
  void shouldNameTheKeysOfASectionWhenASectionIsSet() {
    String p = ScenarioSettings.keyProblem("rackfabric.fabric.link-timers").orElseThrow();
    assertTrue(p.startsWith("a section, not a value: set its keys (rackfabric.fabric.link-timers.dllp-timeout"), p);
  }

  @Test
  void shouldPointElsewhereWhenTheRunSetsTheKeyItself() {
    assertEquals(Optional.of("set by the run itself; give it as multi-jvm.transport or rack run --transport"),
        ScenarioSettings.keyProblem("rackfabric.cluster.transport"));
    assertTrue(ScenarioSettings.keyProblem("rackfabric.cluster.tls.key-store").orElseThrow().contains("--tls-dir"));
  }

  @Test
  void shouldFindNoValueProblemWhenTheRecordsBuild() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("rackfabric.fabric.link-timers.keepalive", "500ms");
    settings.put("rackfabric.fabric.link-timers.dllp-timeout", "2s");
    assertEquals(Optional.empty(), ScenarioSettings.valueProblem(settings));
    assertEquals("500ms", ScenarioSettings.config(settings).getString("rackfabric.fabric.link-timers.keepalive"));
  }

  @Test
  void shouldNameTheKeyThatCompletesARefusedCombination() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("rackfabric.fabric.link-timers.keepalive", "500ms");
    settings.put("rackfabric.fabric.link-timers.dllp-timeout", "900ms");
    ScenarioSettings.ValueProblem p = ScenarioSettings.valueProblem(settings).orElseThrow();
    assertEquals("rackfabric.fabric.link-timers.dllp-timeout", p.key());
    assertTrue(p.text().startsWith("together with rackfabric.fabric.link-timers.keepalive: rackfabric.fabric:"
        + " link-timers: dllp-timeout="), p.text());
  }
}

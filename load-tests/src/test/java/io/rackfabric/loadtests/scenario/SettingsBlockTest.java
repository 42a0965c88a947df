package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioException;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario's {@code settings { rackfabric.... = ... }} block and {@code --set} flags: existing
 * rackfabric keys are taken in the order given, the flags over the block; a key that is unknown,
 * outside rackfabric or set elsewhere in the scenario, and a value a module's settings record
 * refuses, are reported with the file, the line and the key.
 */
class SettingsBlockTest {

  private static final List<String> BASE = List.of(
      "scenario {",                                                                    // 1
      "  name = t",                                                                    // 2
      "  topology = demo",                                                             // 3
      "  run { duration = 20us }",                                                     // 4
      "  traffic = [ { name = a, from = ch1, to = ch2, interval = 1us } ]",            // 5
      "  settings {",                                                                  // 6
      "    rackfabric.host.controlplane.heartbeat-interval = 50ms",                    // 7
      "    rackfabric.fabric.switch-latency = 200ns",                                  // 8
      "  }",                                                                           // 9
      "}");                                                                            // 10

  @TempDir Path dir;

  private ScenarioFiles files() {
    return new ScenarioFiles(dir, BASE);
  }

  private Scenario load(List<String> lines, Map<String, String> flags) throws Exception {
    return ScenarioLoader.load(files().write("s.conf", lines), ScenarioKinds.standard(),
        new ScenarioOptions(null, null, null, Map.of(), null, flags));
  }

  private String problems(List<String> lines, Map<String, String> flags) throws Exception {
    Path file = files().write("bad.conf", lines);
    ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.load(file,
        ScenarioKinds.standard(), new ScenarioOptions(null, null, null, Map.of(), null, flags)));
    return e.getMessage().replace(dir + "/", "");
  }

  @Test
  void shouldTakeTheBlocksSettingsInTheirOrderWhenTheKeysExist() throws Exception {
    Scenario s = load(BASE, Map.of());
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("rackfabric.host.controlplane.heartbeat-interval", "50ms");
    expected.put("rackfabric.fabric.switch-latency", "200ns");
    assertEquals(expected, s.settings());
    assertEquals(List.copyOf(expected.keySet()), List.copyOf(s.settings().keySet()));
    assertEquals("200ns", s.configOverrides().get("rackfabric.fabric.switch-latency"), "the run's JVMs get them");
  }

  @Test
  void shouldGiveAMultiJvmRunADllpTimeoutAboveAnyStallWhenTheScenarioSetsNoLinkTimer() throws Exception {
    String key = "rackfabric.fabric.link-timers.dllp-timeout";
    assertFalse(load(BASE, Map.of()).configOverrides().containsKey(key), "one JVM keeps the fabric's default");
    List<String> multi = files().edit(3, "  topology = demo, mode = multi-jvm");
    assertEquals("10s", load(multi, Map.of()).configOverrides().get(key));
    assertEquals("3s", load(multi, Map.of(key, "3s")).configOverrides().get(key), "a --set wins");
    Scenario keepalive = load(multi, Map.of("rackfabric.fabric.link-timers.keepalive", "500ms"));
    assertFalse(keepalive.configOverrides().containsKey(key), "the scenario's own link timers are left whole");
  }

  @Test
  void shouldLetASetFlagWinOverTheBlockWhenBothGiveAKey() throws Exception {
    Scenario s = load(BASE, Map.of("rackfabric.fabric.switch-latency", "1us"));
    assertEquals("1us", s.settings().get("rackfabric.fabric.switch-latency"));
    assertEquals("50ms", s.settings().get("rackfabric.host.controlplane.heartbeat-interval"));
  }

  @Test
  void shouldNameTheIntendedKeyWhenASettingIsMisspelt() throws Exception {
    String m = problems(files().edit(7, "    rackfabric.host.controlplane.hartbeat-interval = 50ms"), Map.of());
    assertContains(m, "bad.conf:7: rackfabric.host.controlplane.hartbeat-interval: unknown setting (did you mean"
        + " rackfabric.host.controlplane.heartbeat-interval?)");
  }

  @Test
  void shouldNameTheKeyOfThatNameWhenASettingIsInTheWrongSection() throws Exception {
    String m = problems(files().edit(7, "    rackfabric.host.heartbeat-interval = 50ms"), Map.of());
    assertContains(m, "bad.conf:7: rackfabric.host.heartbeat-interval: unknown setting"
        + " (did you mean rackfabric.host.controlplane.heartbeat-interval?)");
  }

  @Test
  void shouldReportTheModulesReasonWithTheKeyWhenAValueIsRefused() throws Exception {
    String m = problems(files().edit(8, "    rackfabric.fabric.max-payload = 300"), Map.of());
    assertContains(m, "bad.conf:8: rackfabric.fabric.max-payload: rackfabric.fabric:"
        + " max-payload=300 not in {128,256,512,1024,2048,4096}");
    m = problems(files().edit(8, "    rackfabric.fabric.switch-latency = fast"), Map.of());
    assertContains(m, "bad.conf:8: rackfabric.fabric.switch-latency:");
    assertContains(m, "fast");
  }

  @Test
  void shouldRefuseAKeyOutsideRackfabricWhenGiven() throws Exception {
    String m = problems(files().edit(8, "    akka.loglevel = DEBUG"), Map.of());
    assertContains(m, "bad.conf:8: akka.loglevel: not a rackfabric.* setting; only those can be set here");
  }

  @Test
  void shouldRefuseAKeyTheScenarioSetsElsewhere() throws Exception {
    List<String> lines = files().edit(4, "  run { duration = 20us, link-timers { keepalive = 200ms, dllp-timeout = 2s } }");
    lines.set(7, "    rackfabric.fabric.link-timers.keepalive = 100ms");
    String m = problems(lines, Map.of());
    assertContains(m, "bad.conf:8: rackfabric.fabric.link-timers.keepalive: also set by"
        + " run.link-timers.keepalive of this scenario");
  }

  @Test
  void shouldReportAFlagAsSetWhenItsKeyIsUnknown() throws Exception {
    String m = problems(BASE, Map.of("rackfabric.fabric.swich-latency", "1us"));
    assertContains(m, "--set: rackfabric.fabric.swich-latency: unknown setting"
        + " (did you mean rackfabric.fabric.switch-latency?)");
    assertFalse(m.contains("bad.conf:"), m);
  }

  @Test
  void shouldNameBothKeysWhenOnlyTheirCombinationIsRefused() throws Exception {
    Map<String, String> flags = new LinkedHashMap<>();
    flags.put("rackfabric.fabric.link-timers.keepalive", "500ms"); // alone: under the default timeout's half
    flags.put("rackfabric.fabric.link-timers.dllp-timeout", "900ms"); // alone: over the default keepalive's double
    String m = problems(BASE, flags);
    assertContains(m, "--set: rackfabric.fabric.link-timers.dllp-timeout: together with"
        + " rackfabric.host.controlplane.heartbeat-interval, rackfabric.fabric.switch-latency,"
        + " rackfabric.fabric.link-timers.keepalive: rackfabric.fabric: link-timers: dllp-timeout=");
  }
}

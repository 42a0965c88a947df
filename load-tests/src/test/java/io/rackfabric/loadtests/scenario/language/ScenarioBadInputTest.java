package io.rackfabric.loadtests.scenario.language;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The house rule for bad input, for scenario files: each input is refused with a message that
 * names the file, the line, the key and the value, nothing crashes and nothing of the value runs
 * on for pages. A case is one line of {@link #cases()}: what is wrong, the input, what the message
 * says. (The same rule for topologies and the command line: cluster-config's BadInputCatalogTest.)
 */
class ScenarioBadInputTest {

  /** A valid scenario on the bundled demo rack, one entry per line so that cases can replace a line. */
  private static final List<String> SCENARIO = List.of(
      "scenario {",                                                                               // 1
      "  topology = demo",                                                                        // 2
      "  run { duration = 100us }",                                                               // 3
      "  traffic = [",                                                                            // 4
      "    { from = mh, to = mem, interval = 200ns, count = 8 }",                                 // 5
      "  ]",                                                                                      // 6
      "}");                                                                                       // 7

  private static final KindCatalog<FaultKind, InvariantKind, FigureKind> NO_KINDS =
      KindCatalog.<FaultKind, InvariantKind, FigureKind>builder().build();

  private record Case(String what, List<String> input, List<String> expected) {
    @Override
    public String toString() {
      return what;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        scenario("20,000 nested objects", List.of("scenario {", "  a { ".repeat(20_000) + "}".repeat(20_001)), "bad.conf:2: syntax: nested deeper than 64 levels"),
        scenario("a traffic count beyond an int", scenario(5, "    { from = mh, to = mem, interval = 200ns, count = 1000000000000 }"), "bad.conf:5: scenario.traffic[0].count: count=1000000000000 not in [1,2147483647]"),
        scenario("a traffic count of 0", scenario(5, "    { from = mh, to = mem, interval = 200ns, count = 0 }"), "bad.conf:5: scenario.traffic[0].count: count=0 not in [1,2147483647]"),
        scenario("a traffic count that is no integer", scenario(5, "    { from = mh, to = mem, interval = 200ns, count = 1.5 }"), "bad.conf:5: scenario.traffic[0].count: expected an integer, got 1.5"));
  }

  @TempDir Path dir;

  @Test
  void shouldLoadWhenTheBaseIsUnchanged() throws Exception {
    // Each case must fail for its own reason, not for something wrong in the base.
    assertEquals(8, ScenarioLoader.parse(String.join("\n", SCENARIO), "ok.conf", null, NO_KINDS,
        ScenarioOptions.NONE).traffic().get(0).count());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void shouldRefuseWithFileLineKeyAndValueWhenTheInputIsBad(Case c) throws IOException {
    Path file = dir.resolve("bad.conf");
    Files.write(file, c.input());
    List<String> problems = assertThrows(ScenarioException.class,
        () -> ScenarioLoader.load(file, NO_KINDS, ScenarioOptions.NONE)).problems().stream()
        .map(p -> p.replace(file.toString(), "bad.conf")).toList();
    String all = String.join("\n", problems);
    for (String expected : c.expected()) {
      assertTrue(all.contains(expected), () -> "expected to find\n  " + expected + "\nin\n  " + cut(all));
    }
    Pattern shape = Pattern.compile("bad\\.conf(:\\d+)?: .*");
    for (String p : problems) {
      assertTrue(shape.matcher(p).matches(), () -> "not file:line: key: reason: " + cut(p));
      assertTrue(p.length() < 1200, () -> "a message of " + p.length() + " chars: " + cut(p));
      assertFalse(p.contains("Exception") || p.contains("\tat "), () -> "a Java exception: " + cut(p));
    }
  }

  private static Case scenario(String what, List<String> input, String... expected) {
    return new Case(what, input, List.of(expected));
  }

  private static List<String> scenario(int line, String text) {
    List<String> lines = new ArrayList<>(SCENARIO);
    lines.set(line - 1, text);
    return lines;
  }

  private static String cut(String text) {
    return text.length() <= 300 ? text : text.substring(0, 300) + "...";
  }
}

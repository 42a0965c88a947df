package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.cli.Rack;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The house rule for bad input, case by case (topologies and the command line here; scenarios in
 * load-tests' {@code ScenarioBadInputTest}): each input is refused with a message that names the
 * file, the line, the key and the value, nothing crashes and nothing of the value runs on for
 * pages. A case is one line of {@link #cases()}: what is wrong, the input, what the message says.
 */
class BadInputCatalogTest {

  /** A valid rack, one entry per line so that cases can replace a line. */
  private static final List<String> RACK = List.of(
      "rack {",                                                                                   // 1
      "  name = t",                                                                               // 2
      "  nodes = [ { name = n1, host = \"127.0.0.1\", port = 25521 } ]",                        // 3
      "  switches = [",                                                                           // 4
      "    { id = sw1, node = n1, ports = [",                                                     // 5
      "        { name = up, number = 0, role = upstream, buses = [0, 1, 3] }",                    // 6
      "        { name = d1, number = 1, role = downstream, buses = [1, 2, 3] }",                  // 7
      "        { name = nt, number = 2, role = ntb, link-bars = [ { base = \"0x8000\", size = \"4KiB\", translate-to = \"0x0\" } ] }", // 8
      "        { name = nt2, number = 3, role = ntb }",                                           // 9
      "      ] }",                                                                                // 10
      "    { id = sw2, node = n1, ports = [",                                                     // 11
      "        { name = up, number = 0, role = upstream, buses = [2, 3, 3] }",                    // 12
      "        { name = nt, number = 1, role = ntb, virtual-bars = [ { base = \"0x0\", size = \"4KiB\", translate-to = \"0x8000\" } ] }", // 13
      "        { name = d1, number = 2, role = downstream, buses = [3, 4, 4] }",                  // 14
      "      ] }",                                                                                // 15
      "  ]",                                                                                      // 16
      "  endpoints = [",                                                                          // 17
      "    { id = rc, node = n1, root = true, bars = [ { base = \"0x100000\", size = \"1MiB\" } ] }", // 18
      "    { id = ep1, node = n1, bars = [ { base = \"0x10000\", size = \"4KiB\" } ] }",          // 19
      "    { id = host2, node = n1, root = true, bars = [ { base = \"0x0\", size = \"4KiB\" } ] }", // 20
      "  ]",                                                                                      // 21
      "  links = [",                                                                              // 22
      "    { a = rc, b = sw1.up }",                                                               // 23
      "    { a = sw1.d1, b = sw2.up }",                                                           // 24
      "    { a = sw2.d1, b = ep1 }",                                                              // 25
      "    { a = sw1.nt, b = host2 }",                                                            // 26
      "  ]",                                                                                      // 27
      "}");                                                                                       // 28

  private static final String TEN_MB = "a".repeat(10 * 1024 * 1024);

  /** What reads the input: the topology loader, or {@code rack topology check}. */
  private enum Reader { TOPOLOGY, CHECK }

  private record Case(String what, Reader reader, List<String> input, List<String> expected) {
    @Override
    public String toString() {
      return what;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        topology("20,000 nested objects", List.of("rack {", "  a { ".repeat(20_000) + "}".repeat(20_001)), "bad.conf:2: syntax: nested deeper than 64 levels"),
        topology("a 20,000-segment dotted path", List.of("rack." + "a.".repeat(20_000) + "b = 1"), "bad.conf:1: syntax: nested deeper than 64 levels"),
        topology("20,000 nested lists", List.of("rack { name = " + "[".repeat(20_000) + "]".repeat(20_000) + " }"), "bad.conf:1: syntax: nested deeper than 64 levels"),
        topology("a BAR size that is no power of two", rack(19, "    { id = ep1, node = n1, bars = [ { base = \"0x10001\", size = 3000 } ] }"), "bad.conf:19: rack.endpoints[1].bars[0].size: size = 3000 is not a power of two", "bad.conf:19: rack.endpoints[1].bars[0].base: base = 0x10001 is not aligned to its size 0x1000"),
        topology("a BAR base not aligned to its size", rack(19, "    { id = ep1, node = n1, bars = [ { base = \"0x11000\", size = \"8KiB\" } ] }"), "bad.conf:19: rack.endpoints[1].bars[0].base: base = 0x11000 is not aligned to its size 0x2000"),
        topology("a BAR below 16 bytes", rack(19, "    { id = ep1, node = n1, bars = [ { base = \"0x10000\", size = 8 } ] }"), "bad.conf:19: rack.endpoints[1].bars[0].size: size = 8 is below 16 bytes"),
        topology("two ntb ports of one switch cabled together", rack(26, "    { a = sw1.nt, b = sw1.nt2 }"), "bad.conf:26: rack.links[3].b: link sw1.nt -- sw1.nt2: both ends are ports of the same switch"),
        topology("two ntb ports of one domain cabled together", rack(26, "    { a = sw1.nt, b = sw2.nt }"), "bad.conf:26: rack.links[3].b: link sw1.nt -- sw2.nt joins two ntb ports of one PCIe domain"),
        check("a node host that does not resolve", rack(3, "  nodes = [ { name = n1, host = \"nosuch.invalid\", port = 25521 } ]"), "bad.conf:3: rack.nodes[0].host: host = \"nosuch.invalid\" does not resolve to an address"),
        topology("a 10 MB id", rack(19, "    { id = \"" + TEN_MB + " x\", node = n1 }"), "bad.conf:19: rack.endpoints[1].id: id='" + "a".repeat(60) + "... (" + TEN_MB.length() + " chars) x' may only use"),
        topology("control characters in an id", rack(19, "    { id = \"ep\\u0007\\n1\", node = n1 }"), "bad.conf:19: rack.endpoints[1].id: id='ep\\u0007\\n1' may only use"));
  }

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void shouldRefuseWithFileLineKeyAndValueWhenTheInputIsBad(Case c) throws IOException {
    List<String> problems = problems(c);
    String all = String.join("\n", problems);
    for (String expected : c.expected()) {
      assertContains(all, expected);
    }
    Pattern shape = Pattern.compile("bad\\.conf(:\\d+)?: .*");
    for (String p : problems) {
      assertTrue(shape.matcher(p).matches(), () -> "not file:line: key: reason: " + cut(p));
      assertTrue(p.length() < 1200, () -> "a message of " + p.length() + " chars: " + cut(p));
      assertFalse(p.contains("Exception") || p.contains("\tat "), () -> "a Java exception: " + cut(p));
    }
  }

  @Test
  void shouldLoadWhenTheBasesAreUnchanged() throws Exception {
    // Each case must fail for its own reason, not for something wrong in the base.
    Topology t = TopologyLoader.load(write(RACK));
    assertEquals(3, t.endpoints().size());
    assertEquals(0, TopologyCheck.check(
        write(RACK).toString(), new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(new ByteArrayOutputStream())));
  }

  @Test
  void shouldRefuseToStartANodeWhenItsHostDoesNotResolve() throws IOException {
    Path file = write(rack(3, "  nodes = [ { name = n1, host = \"nosuch.invalid\", port = 25521 } ]"));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Rack.run(List.of("node", "--topology", file.toString(), "--node", "n1"),
        new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
    String e = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, status, e);
    assertContains(e, "rack node: " + file + ":3: rack.nodes[0].host: host = \"nosuch.invalid\" does not"
        + " resolve to an address");
    assertFalse(e.contains("Exception") || e.contains("\tat "), e);
  }

  @Test
  void shouldRefuseAnEmptyJournalByNameWhenReplayIsGivenOne() throws IOException {
    Path file = Files.createFile(dir.resolve("node-a.mv.db"));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Rack.run(List.of("replay", "--journal", file.toString()),
        new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
    String e = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, status, e);
    assertContains(e, "rack replay: journal " + file.toAbsolutePath().normalize() + " is empty");
    assertFalse(e.contains("Exception") || e.contains("\tat ") || e.contains("H2 error"), e);
  }

  // ---- the catalog's one-liners

  private static Case topology(String what, List<String> input, String... expected) {
    return new Case(what, Reader.TOPOLOGY, input, List.of(expected));
  }

  private static Case check(String what, List<String> input, String... expected) {
    return new Case(what, Reader.CHECK, input, List.of(expected));
  }

  private static List<String> rack(int line, String text) {
    return edit(RACK, line, text);
  }

  private static List<String> edit(List<String> base, int line, String text) {
    List<String> lines = new ArrayList<>(base);
    lines.set(line - 1, text);
    return lines;
  }

  // ---- running a case

  /** The problems reported for the case's input, written to bad.conf and named so. */
  private List<String> problems(Case c) throws IOException {
    Path file = write(c.input());
    List<String> raw = switch (c.reader()) {
      case TOPOLOGY -> assertThrows(TopologyException.class, () -> TopologyLoader.load(file)).problems();
      case CHECK -> {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = TopologyCheck.check(file.toString(),
            new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(2, status, text);
        List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n")));
        lines.remove(lines.size() - 1); // "N problems"
        yield lines;
      }
    };
    return raw.stream().map(p -> p.replace(file.toString(), "bad.conf")).toList();
  }

  private Path write(List<String> lines) throws IOException {
    Path file = dir.resolve("bad.conf");
    Files.write(file, lines);
    return file;
  }

  private static String cut(String text) {
    return text.length() <= 300 ? text : text.substring(0, 300) + "...";
  }

  private static void assertContains(String text, String expected) {
    assertTrue(text.contains(expected), () -> "expected to find\n  " + expected + "\nin\n  "
        + cut(text).replace("\n", "\n  "));
  }
}

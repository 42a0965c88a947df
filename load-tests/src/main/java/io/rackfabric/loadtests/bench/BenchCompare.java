package io.rackfabric.loadtests.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.rackfabric.loadtests.report.Json;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code rack bench compare A.json B.json}: two result files of {@code rack bench} (any
 * benchmark: their {@code figures} lists) side by side, with B/A per figure of the same name.
 * Whether a ratio above 1 is better depends on the unit (ns/op: worse; ops/s: better), so the
 * unit is printed with it.
 */
public final class BenchCompare {

  /** A figure as a result file holds it; value null when it was not a number (NaN). */
  record Entry(Double value, String unit) {}

  /** A file that is missing or is no result file of {@code rack bench}; the message names it and what is wrong. */
  public static final class NotAResult extends Exception {
    NotAResult(String message) {
      super(message);
    }
  }

  private BenchCompare() {}

  public static int run(Path a, Path b, PrintStream out) throws NotAResult {
    JsonNode docA = load(a);
    JsonNode docB = load(b);
    Map<String, Entry> figuresA = figures(docA, a);
    Map<String, Entry> figuresB = figures(docB, b);
    out.println("A: " + a + " " + describe(docA));
    out.println("B: " + b + " " + describe(docB));
    out.printf("%-44s %14s %14s %9s  %s%n", "figure", "A", "B", "B/A", "unit");
    for (Map.Entry<String, Entry> e : figuresA.entrySet()) {
      Entry x = e.getValue();
      Entry y = figuresB.get(e.getKey());
      if (y == null) {
        out.printf("%-44s %14s %14s %9s  %s%n", e.getKey(), number(x.value()), "-", "only in A", x.unit());
      } else if (!x.unit().equals(y.unit())) {
        out.printf("%-44s %14s %14s %9s  %s%n", e.getKey(), number(x.value()), number(y.value()), "-",
            "units differ: " + x.unit() + " vs " + y.unit());
      } else {
        out.printf("%-44s %14s %14s %9s  %s%n", e.getKey(), number(x.value()), number(y.value()),
            ratio(x.value(), y.value()), x.unit());
      }
    }
    for (Map.Entry<String, Entry> e : figuresB.entrySet()) {
      if (!figuresA.containsKey(e.getKey())) {
        out.printf("%-44s %14s %14s %9s  %s%n", e.getKey(), "-", number(e.getValue().value()), "only in B",
            e.getValue().unit());
      }
    }
    out.println("B/A below 1: B took less time per operation (ns/op, s) or had a lower rate (per s)");
    return 0;
  }

  private static JsonNode load(Path file) throws NotAResult {
    if (!Files.isRegularFile(file)) {
      throw new NotAResult("no result file " + file);
    }
    try {
      return Json.read(file);
    } catch (IOException e) {
      throw new NotAResult(file + " is not a JSON result file: " + e.getMessage());
    }
  }

  /** The figures of a result file by name, in file order. */
  static Map<String, Entry> figures(JsonNode doc, Path file) throws NotAResult {
    JsonNode list = doc.path("figures");
    if (!list.isArray()) {
      throw new NotAResult(file + " has no list of figures with name and value");
    }
    Map<String, Entry> out = new LinkedHashMap<>();
    for (int i = 0; i < list.size(); i++) {
      JsonNode f = list.get(i);
      JsonNode name = f.path("name");
      JsonNode value = f.path("value");
      if (!name.isTextual() || !(value.isNumber() || value.isNull())) {
        throw new NotAResult(file + " has no list of figures with name and value: figures[" + i
            + "] lacks a text name or a number (or null) value");
      }
      Double v = value.isNull() ? null : value.asDouble();
      if (out.put(name.asText(), new Entry(v, f.path("unit").asText(""))) != null) {
        throw new NotAResult(file + ": figure " + name.asText() + " appears twice");
      }
    }
    return out;
  }

  private static String describe(JsonNode doc) {
    JsonNode machine = doc.path("machine");
    StringBuilder b = new StringBuilder("(");
    b.append(doc.path("benchmark").asText("?"));
    if (doc.hasNonNull("date")) {
      b.append(", ").append(doc.get("date").asText());
    }
    if (machine.hasNonNull("cores")) {
      b.append(", ").append(machine.get("cores").asInt()).append(" cores");
    }
    if (machine.hasNonNull("cpu")) {
      b.append(", ").append(machine.get("cpu").asText());
    }
    if (machine.hasNonNull("load_average_before") && machine.hasNonNull("load_average_after")) {
      b.append(String.format(Locale.ROOT, ", load %.1f-%.1f", machine.get("load_average_before").asDouble(),
          machine.get("load_average_after").asDouble()));
    }
    if (machine.hasNonNull("java")) {
      b.append(", ").append(machine.get("java").asText());
    }
    return b.append(')').toString();
  }

  private static String number(Double v) {
    return v == null ? "null" : String.format(Locale.ROOT, "%,.2f", v);
  }

  private static String ratio(Double a, Double b) {
    return a == null || b == null || a == 0 ? "-" : String.format(Locale.ROOT, "%.3f", b / a);
  }
}

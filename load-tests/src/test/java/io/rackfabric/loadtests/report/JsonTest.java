package io.rackfabric.loadtests.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The layout of every result file (tools and tests read it): keys in the order put, one a line,
 * numbers as Java prints them, not-a-number figures null, other values as their text.
 */
class JsonTest {

  enum Mode { SINGLE_JVM }

  @TempDir Path dir;

  @Test
  void shouldWriteOneEntryALineInTheOrderPutWhenGivenAResult() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("scenario", "a \"quoted\"\tname\n\u0001é");
    m.put("passed", true);
    m.put("nothing", null);
    m.put("long", 12345678901234L);
    m.put("big", 1.5e12);
    m.put("small", 1e-5);
    m.put("whole", 2.0);
    m.put("nan", Double.NaN);
    m.put("inf", Double.POSITIVE_INFINITY);
    m.put("empty_map", Map.of());
    m.put("empty_list", List.of());
    m.put("path", Path.of("/tmp/x y"));
    m.put("mode", Mode.SINGLE_JVM);
    List<Object> l = new ArrayList<>();
    l.add("two");
    l.add(Map.of("k", List.of(1.25, -3L)));
    l.add(null);
    m.put("list", l);
    m.put("nested", Map.of("a", Map.of("deep", List.of())));

    assertEquals("""
        {
          "scenario": "a \\"quoted\\"\\tname\\n\\u0001é",
          "passed": true,
          "nothing": null,
          "long": 12345678901234,
          "big": 1.5E12,
          "small": 1.0E-5,
          "whole": 2.0,
          "nan": null,
          "inf": null,
          "empty_map": {},
          "empty_list": [],
          "path": "/tmp/x y",
          "mode": "SINGLE_JVM",
          "list": [
            "two",
            {
              "k": [
                1.25,
                -3
              ]
            },
            null
          ],
          "nested": {
            "a": {
              "deep": []
            }
          }
        }
        """, Json.write(m));
  }

  @Test
  void shouldReadBackWhatItWroteInTheSameOrderWhenGivenItsFile() throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("z", 1);
    m.put("a", List.of(2.5, "x"));
    Path file = Files.writeString(dir.resolve("r.json"), Json.write(m));

    assertEquals(m, Json.readObject(file));
    assertEquals(List.of("z", "a"), new ArrayList<>(Json.readObject(file).keySet()));
  }

  @Test
  void shouldSayWhereWhenAFileIsNotJson() throws IOException {
    Path broken = Files.writeString(dir.resolve("broken.json"), "{\"a\": 1,\n \"b\": }");
    Path trailing = Files.writeString(dir.resolve("trailing.json"), "{\"a\": 1} {");

    String why = assertThrows(IOException.class, () -> Json.read(broken)).getMessage();
    assertTrue(why.contains("(line 2, column 7)"), why);
    assertThrows(IOException.class, () -> Json.readObject(trailing));
  }
}

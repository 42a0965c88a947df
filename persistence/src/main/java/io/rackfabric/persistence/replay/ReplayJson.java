package io.rackfabric.persistence.replay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rackfabric.persistence.replay.Replay.Comparison;
import io.rackfabric.persistence.replay.Replay.Folded;
import io.rackfabric.persistence.replay.StateDiff.Change;
import io.rackfabric.persistence.replay.StateDiff.Kind;
import io.rackfabric.persistence.replay.StateDiff.SectionChanges;
import io.rackfabric.persistence.replay.StateSections.Section;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The replay debugger's answers for programs: one JSON document each, on one line. Records are
 * objects of their components (numbers as numbers, enums by name); absent values are null.
 */
public final class ReplayJson {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ReplayJson() {}

  public static String list(Path path, List<IdSummary> summaries) {
    List<Object> ids = new ArrayList<>();
    for (IdSummary s : summaries) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("journal", s.journal().toString());
      m.put("persistenceId", s.persistenceId());
      m.put("events", s.events());
      m.put("highestSeqNr", s.highestSeqNr());
      m.put("snapshotSeqNr", s.hasSnapshot() ? s.snapshotSeqNr() : null);
      ids.add(m);
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("path", path.toString());
    doc.put("persistenceIds", ids);
    return write(doc);
  }

  public static String events(IdSummary summary, List<JournalEntry> entries) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("journal", summary.journal().toString());
    doc.put("persistenceId", summary.persistenceId());
    doc.put("snapshotSeqNr", summary.hasSnapshot() ? summary.snapshotSeqNr() : null);
    doc.put("events", entries.stream().map(ReplayJson::event).toList());
    return write(doc);
  }

  public static String state(Folded f) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("journal", f.journal().toString());
    doc.put("persistenceId", f.persistenceId());
    doc.put("seqNr", f.seqNr());
    doc.put("snapshotSeqNr", f.snapshotSeqNr() < 0 ? null : f.snapshotSeqNr());
    doc.put("eventsFolded", f.eventsFolded());
    Map<String, Object> state = new LinkedHashMap<>();
    for (Section s : StateSections.of(f.state())) {
      Object entries = s.keyComponents().isEmpty() ? s.entries() : new ArrayList<>(s.entries().values());
      state.put(s.name(), Values.json(entries));
    }
    doc.put("state", state);
    return write(doc);
  }

  public static String diff(String persistenceId, long from, long to, StateDiff diff) {
    Map<String, Object> sections = new LinkedHashMap<>();
    for (SectionChanges sc : diff.sections()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("added", sc.changes().stream().filter(c -> c.kind() == Kind.ADDED)
          .map(c -> Values.json(c.after())).toList());
      m.put("removed", sc.changes().stream().filter(c -> c.kind() == Kind.REMOVED)
          .map(c -> Values.json(c.before())).toList());
      m.put("changed", sc.changes().stream().filter(c -> c.kind() == Kind.CHANGED)
          .map(ReplayJson::changed).toList());
      sections.put(sc.section().name(), m);
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("persistenceId", persistenceId);
    doc.put("from", from);
    doc.put("to", to);
    doc.put("changed", !diff.isEmpty());
    doc.put("sections", sections);
    return write(doc);
  }

  public static String compare(Path a, Path b, List<Comparison> comparisons) {
    List<Object> results = new ArrayList<>();
    for (Comparison c : comparisons) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("persistenceId", c.persistenceId());
      m.put("verdict", c.verdict().name().toLowerCase(Locale.ROOT));
      m.put("lengthA", c.lengthA());
      m.put("lengthB", c.lengthB());
      m.put("seqNr", c.seqNr() < 0 ? null : c.seqNr());
      m.put("a", c.a() == null ? null : event(c.a()));
      m.put("b", c.b() == null ? null : event(c.b()));
      results.add(m);
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("a", a.toString());
    doc.put("b", b.toString());
    doc.put("results", results);
    return write(doc);
  }

  private static Map<String, Object> event(JournalEntry e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("seqNr", e.seqNr());
    m.put("at", e.event().at());
    m.put("type", e.event().getClass().getSimpleName());
    m.put("text", ReplayText.event(e));
    m.put("event", Values.json(e.event()));
    return m;
  }

  private static Map<String, Object> changed(Change c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("key", c.key());
    m.put("before", Values.json(c.before()));
    m.put("after", Values.json(c.after()));
    return m;
  }

  /** Compact JSON of maps, lists, strings, numbers, booleans and null, with a final newline. */
  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value) + "\n";
    } catch (JsonProcessingException e) {
      // Values.json leaves only maps, lists and plain values; this is a bug in what was passed.
      throw new UncheckedIOException("cannot write " + value.getClass().getName() + " as JSON", e);
    }
  }
}

package io.rackfabric.persistence.replay;

import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.Tenure;
import io.rackfabric.persistence.replay.Replay.Comparison;
import io.rackfabric.persistence.replay.Replay.Folded;
import io.rackfabric.persistence.replay.StateDiff.Change;
import io.rackfabric.persistence.replay.StateDiff.Kind;
import io.rackfabric.persistence.replay.StateDiff.SectionChanges;
import io.rackfabric.persistence.replay.StateSections.Section;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The replay debugger's answers for people: one section or line per fact, aligned. */
public final class ReplayText {

  private static final List<String> EVENT_SKIP = List.of("at");

  private ReplayText() {}

  /** Each journal file with its persistence ids, event counts and template snapshots. */
  public static String list(List<Path> files, List<IdSummary> summaries) {
    StringBuilder b = new StringBuilder();
    for (Path file : files) {
      b.append(file).append('\n');
      List<IdSummary> here = summaries.stream().filter(s -> s.journal().equals(file)).toList();
      if (here.isEmpty()) {
        b.append("  (no events)\n");
        continue;
      }
      int w = Math.max("persistence id".length(),
          here.stream().mapToInt(s -> s.persistenceId().length()).max().orElse(0));
      b.append(String.format(Locale.ROOT, "  %-" + w + "s  %8s  %13s  %s%n",
          "persistence id", "events", "highest seqNr", "template snapshot"));
      for (IdSummary s : here) {
        b.append(String.format(Locale.ROOT, "  %-" + w + "s  %8d  %13d  %s%n", s.persistenceId(),
            s.events(), s.highestSeqNr(),
            s.hasSnapshot() ? "at seqNr " + s.snapshotSeqNr() : "none"));
      }
      tenures(here, b);
    }
    return b.toString();
  }

  /** Under the table, when a host rejoined as backup: its journals, one per tenure, in order. */
  private static void tenures(List<IdSummary> ids, StringBuilder b) {
    Map<String, TreeMap<Integer, String>> byHost = new TreeMap<>();
    ids.forEach(s -> {
      Tenure t = Tenure.of(s.persistenceId());
      byHost.computeIfAbsent(t.base(), k -> new TreeMap<>()).put(t.number(), s.persistenceId());
    });
    byHost.values().stream().filter(t -> t.size() > 1 || t.firstKey() > 1).forEach(t -> b.append("  tenures: ")
        .append(t.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")))
        .append(" (each journal a tenure of one host, kept apart: see control-plane.md, Rejoin)\n"));
  }

  /** One line per event: sequence number, model time, the event; the snapshot marked. */
  public static String events(IdSummary summary, List<JournalEntry> entries) {
    StringBuilder b = new StringBuilder();
    b.append(summary.persistenceId()).append(" in ").append(summary.journal()).append(": ")
        .append(summary.events()).append(" events, template snapshot ")
        .append(summary.hasSnapshot() ? "at seqNr " + summary.snapshotSeqNr() : "none")
        .append('\n');
    int seqWidth = Long.toString(summary.highestSeqNr()).length();
    int atWidth = entries.stream().mapToInt(e -> Values.ns(e.event().at()).length()).max().orElse(0);
    for (JournalEntry e : entries) {
      b.append(event(e, seqWidth, atWidth)).append('\n');
      if (e.seqNr() == summary.snapshotSeqNr()) {
        b.append(" ".repeat(seqWidth + 2)).append("-- template snapshot: the state after event ")
            .append(e.seqNr()).append(" --\n");
      }
      if (e.event() instanceof ControllerEvent.SteppedDown) {
        b.append(" ".repeat(seqWidth + 2)).append("-- end of this tenure: its master stepped down (not part of"
            + " the replicated change log) --\n");
      }
    }
    return b.toString();
  }

  /** {@code 12  at 1,204,000 ns  IommuPageOpened host=ch2 requester=0x0100 ...}. */
  public static String event(JournalEntry e) {
    return event(e, 0, 0);
  }

  private static String event(JournalEntry e, int seqWidth, int atWidth) {
    return String.format(Locale.ROOT, "%" + Math.max(1, seqWidth) + "d  at %" + Math.max(1, atWidth)
        + "s  %s", e.seqNr(), Values.ns(e.event().at()), Values.line((Record) e.event(), EVENT_SKIP));
  }

  /** Every section of the state after an event, entry by entry. */
  public static String state(Folded f) {
    return state(f, null);
  }

  /** Device Lending's sections of the state after an event: offers, loans, DMA buffer mappings, MSI paths. */
  public static String lending(Folded f) {
    return state(f, Set.of("offers", "loans", "dmaMappings", "msiPaths"));
  }

  /** The sections named in {@code only} (all when null) of the state after an event. */
  private static String state(Folded f, Set<String> only) {
    StringBuilder b = new StringBuilder();
    b.append(f.persistenceId()).append(" after event ").append(f.seqNr()).append(" (")
        .append(f.journal()).append("; ").append(origin(f)).append(")\n");
    for (Section s : StateSections.of(f.state())) {
      if (only != null && !only.contains(s.name())) {
        continue;
      }
      boolean scalar = s.keyComponents().isEmpty();
      b.append(s.name()).append(scalar ? "" : " (" + s.entries().size() + ")").append('\n');
      if (s.entries().isEmpty()) {
        b.append("  (none)\n");
      }
      int w = s.entries().keySet().stream().mapToInt(String::length).max().orElse(0);
      s.entries().forEach((key, entry) -> b.append(String.format(Locale.ROOT, "  %-" + w + "s  %s%n",
          key, StateSections.text(s, key, entry))));
    }
    return b.toString();
  }

  private static String origin(Folded f) {
    return f.snapshotSeqNr() < 0 ? "folded " + f.eventsFolded() + " events from the first"
        : "folded " + f.eventsFolded() + " events after the template snapshot at seqNr "
            + f.snapshotSeqNr();
  }

  /** The replay rate, for stderr: events decoded and folded per second of wall time. */
  public static String rate(Folded f) {
    return String.format(Locale.ROOT, "replayed %,d events in %.3f ms: %,.0f events/s",
        f.eventsFolded(), f.nanos() / 1e6, f.eventsPerSecond());
  }

  /** The entries added, removed and changed between two states, section by section. */
  public static String diff(String persistenceId, long from, long to, StateDiff diff) {
    StringBuilder b = new StringBuilder();
    b.append(persistenceId).append(": state after event ").append(from).append(" -> after event ")
        .append(to).append('\n');
    if (diff.isEmpty()) {
      return b.append("no change\n").toString();
    }
    for (SectionChanges sc : diff.sections()) {
      if (sc.changes().isEmpty()) {
        continue;
      }
      Section s = sc.section();
      b.append(String.format(Locale.ROOT, "%s: %d added, %d removed, %d changed%n", s.name(),
          sc.count(Kind.ADDED), sc.count(Kind.REMOVED), sc.count(Kind.CHANGED)));
      int w = sc.changes().stream().mapToInt(c -> c.key().length()).max().orElse(0);
      for (Change c : sc.changes()) {
        String pad = String.format(Locale.ROOT, "%-" + w + "s", c.key());
        switch (c.kind()) {
          case ADDED -> b.append("  + ").append(pad).append("  ")
              .append(StateSections.text(s, c.key(), c.after()));
          case REMOVED -> b.append("  - ").append(pad).append("  ")
              .append(StateSections.text(s, c.key(), c.before()));
          case CHANGED -> b.append("  ~ ").append(pad).append("  ")
              .append(StateSections.text(s, c.key(), c.before())).append("  ->  ")
              .append(StateSections.text(s, c.key(), c.after()));
        }
        b.append('\n');
      }
    }
    return b.toString();
  }

  /** A line per persistence id: identical, a prefix (with both lengths), or the first divergence. */
  public static String compare(Path a, Path b, List<Comparison> comparisons) {
    List<String> lines = new ArrayList<>();
    for (Comparison c : comparisons) {
      String id = c.persistenceId();
      switch (c.verdict()) {
        case IDENTICAL -> lines.add(id + ": identical (" + c.lengthA() + " events)");
        case PREFIX -> {
          boolean aShorter = c.lengthA() < c.lengthB();
          lines.add(id + ": " + (aShorter ? a : b) + " is a prefix of " + (aShorter ? b : a) + ": "
              + c.lengthA() + " events in " + a + ", " + c.lengthB() + " in " + b
              + " (one lags behind the other; not a divergence)");
        }
        case DIVERGED -> {
          lines.add(id + ": diverged at seqNr " + c.seqNr() + " (" + c.lengthA() + " events in " + a
              + ", " + c.lengthB() + " in " + b + ")");
          lines.add("  " + a + ": " + event(c.a()));
          lines.add("  " + b + ": " + event(c.b()));
        }
      }
    }
    return String.join("\n", lines) + "\n";
  }
}

package io.rackfabric.cluster.cli;

import io.rackfabric.persistence.replay.IdSummary;
import io.rackfabric.persistence.replay.JournalReader;
import io.rackfabric.persistence.replay.Journals;
import io.rackfabric.persistence.replay.Replay;
import io.rackfabric.persistence.replay.Replay.Comparison;
import io.rackfabric.persistence.replay.Replay.Folded;
import io.rackfabric.persistence.replay.Replay.Verdict;
import io.rackfabric.persistence.replay.ReplayException;
import io.rackfabric.persistence.replay.ReplayJson;
import io.rackfabric.persistence.replay.ReplayText;
import io.rackfabric.persistence.replay.StateDiff;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rack replay}: the controller journal debugger (issue 4). It reads the H2 journal files
 * read-only through JDBC, without an actor system (io.rackfabric.persistence.replay). Exit 0, 1
 * when {@code --compare} finds a divergence, 2 for bad flags or a journal that is missing, in use,
 * corrupt or foreign.
 */
@Command(name = "replay",
    description = {"replay a controller journal: --journal DIR [--id ID] [--at N | --diff A B | --compare DIR2]"
        + " [--json]",
        "DIR is a journal file (<node>.mv.db) or a data folder holding one per node. It is only read, never"
        + " written; a journal a running node has open is refused. Alone it lists the persistence ids, their event"
        + " counts, highest sequence numbers and template snapshot. --at and --diff need --id unless the journal"
        + " holds one persistence id. Exit 0, 1 when --compare finds a divergence, 2 for bad flags or a journal"
        + " that is missing, in use, corrupt or foreign."})
public final class ReplayRackCommand extends PicocliRackCommand {

  // Checked in call() rather than required = true, to keep the message "--journal is required".
  @Option(names = "--journal", paramLabel = "DIR", description = "a journal file or a data folder (required)")
  String journal;

  @Option(names = "--id", paramLabel = "ID", description = "one persistence id: its events, or whose state")
  String id;

  @Option(names = "--at", paramLabel = "N",
      description = "the state after event N (0: before the first), folded from the template snapshot when it"
          + " lies at or below N; the replay rate on stderr")
  String at;

  @Option(names = "--diff", arity = "2", paramLabel = "A B",
      description = "what changed in the state from after event A to after event B")
  List<String> diff;

  @Option(names = "--compare", paramLabel = "DIR2",
      description = "compare with another journal of the same controller (the MMH's with the BMH's): identical,"
          + " a prefix (one lags), or the first divergence (exit 1)")
  String compare;

  @Option(names = "--json", description = "one JSON document instead of text")
  boolean json;

  @Override
  public Integer call() throws UsageException {
    long modes = Stream.of(at, diff, compare).filter(java.util.Objects::nonNull).count();
    if (modes > 1) {
      throw new UsageException("--at, --diff and --compare are alternatives: give one");
    }
    if (journal == null) {
      throw new UsageException("--journal is required");
    }
    try (Journals journals = Journals.open(Path.of(journal))) {
      if (compare != null) {
        return compare(journals, Path.of(compare), id, json, out);
      }
      if (at != null) {
        String which = id(journals);
        Folded f = Replay.stateAt(journals.require(which), which, seqNr("at", at));
        out.print(json ? ReplayJson.state(f) : ReplayText.state(f));
        err.println(ReplayText.rate(f));
      } else if (diff != null) {
        String which = id(journals);
        JournalReader reader = journals.require(which);
        long from = seqNr("diff", diff.get(0));
        long to = seqNr("diff", diff.get(1));
        StateDiff d = StateDiff.between(Replay.stateAt(reader, which, from).state(),
            Replay.stateAt(reader, which, to).state());
        out.print(json ? ReplayJson.diff(which, from, to, d) : ReplayText.diff(which, from, to, d));
      } else if (id != null) {
        JournalReader reader = journals.require(id);
        IdSummary summary = reader.summary(id).orElseThrow();
        var events = reader.events(id, 0, Long.MAX_VALUE);
        out.print(json ? ReplayJson.events(summary, events) : ReplayText.events(summary, events));
      } else {
        List<IdSummary> summaries = journals.summaries();
        out.print(json ? ReplayJson.list(journals.path(), summaries) : ReplayText.list(
            journals.readers().stream().map(JournalReader::file).toList(), summaries));
      }
      return 0;
    } catch (ReplayException e) {
      throw new UsageException(e.getMessage());
    }
  }

  private static int compare(Journals a, Path other, String id, boolean json, PrintStream out)
      throws ReplayException {
    try (Journals b = Journals.open(other)) {
      List<Comparison> comparisons = Replay.compare(a, b, Optional.ofNullable(id));
      out.print(json ? ReplayJson.compare(a.path(), b.path(), comparisons)
          : ReplayText.compare(a.path(), b.path(), comparisons));
      return comparisons.stream().anyMatch(c -> c.verdict() == Verdict.DIVERGED) ? 1 : 0;
    }
  }

  private String id(Journals journals) throws ReplayException {
    return id != null ? id : journals.onlyId();
  }

  private static long seqNr(String flag, String value) throws UsageException {
    try {
      long n = Long.parseLong(value.replace("_", ""));
      if (n < 0) {
        throw new UsageException("--" + flag + "=" + value + " is negative (a sequence number)");
      }
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException("--" + flag + "=" + value + " is not a sequence number");
    }
  }
}

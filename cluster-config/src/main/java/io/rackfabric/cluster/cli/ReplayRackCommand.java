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
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code rack replay}: the controller journal debugger (issue 4). It reads the H2 journal files
 * read-only through JDBC, without an actor system (io.rackfabric.persistence.replay). Exit 0, 1
 * when {@code --compare} finds a divergence, 2 for bad flags or a journal that is missing, in use,
 * corrupt or foreign.
 */
public final class ReplayRackCommand implements RackCommand {

  static final String USAGE =
      "usage: rack replay --journal DIR [--id ID] [--at N | --diff A B | --compare DIR2] [--json]\n"
          + "  DIR is a journal file (<node>.mv.db) or a data folder holding one per node. It is\n"
          + "  only read, never written; a journal a running node has open is refused.\n"
          + "  (alone)        lists the persistence ids, their event counts, highest sequence\n"
          + "                 numbers and template snapshot\n"
          + "  --id ID        prints ID's events: sequence number, model time, the event\n"
          + "  --at N         prints the state after event N (0: before the first), folded from the\n"
          + "                 template snapshot when it lies at or below N; the replay rate on stderr\n"
          + "  --diff A B     prints what changed in the state from after event A to after event B\n"
          + "  --compare DIR2 compares with another journal of the same controller (the MMH's with\n"
          + "                 the BMH's): identical, a prefix (one lags), or the first divergence\n"
          + "                 (exit 1)\n"
          + "  --json         one JSON document instead of text\n"
          + "  --at and --diff need --id unless the journal holds one persistence id.\n";

  private static final Set<String> VALUED = Set.of("journal", "id", "at", "diff", "compare");

  @Override
  public String name() {
    return "replay";
  }

  @Override
  public String summary() {
    return "replay a controller journal: --journal DIR [--id ID] [--at N | --diff A B"
        + " | --compare DIR2] [--json]";
  }

  @Override
  public int run(List<String> argList, PrintStream out, PrintStream err) throws UsageException {
    if (argList.contains("-h")) {
      out.print(USAGE);
      return 0;
    }
    Args args = Args.parse(argList, VALUED, Set.of("json", "help"));
    if (args.has("help")) {
      out.print(USAGE);
      return 0;
    }
    long modes = Stream.of("at", "diff", "compare").filter(args::has).count();
    if (modes > 1) {
      throw new UsageException("--at, --diff and --compare are alternatives: give one");
    }
    List<String> extra = args.positional();
    if (extra.size() > (args.has("diff") ? 1 : 0)) {
      throw new UsageException("unexpected argument '" + extra.get(extra.size() - 1) + "'");
    }
    if (args.has("diff") && extra.isEmpty()) {
      throw new UsageException("--diff needs two sequence numbers: --diff A B");
    }
    boolean json = args.has("json");
    Path journal = Path.of(args.require("journal"));
    try (Journals journals = Journals.open(journal)) {
      if (args.has("compare")) {
        return compare(journals, Path.of(args.get("compare", null)), args, json, out);
      }
      if (args.has("at")) {
        String id = id(args, journals);
        Folded f = Replay.stateAt(journals.require(id), id, seqNr("at", args.get("at", null)));
        out.print(json ? ReplayJson.state(f) : ReplayText.state(f));
        err.println(ReplayText.rate(f));
      } else if (args.has("diff")) {
        String id = id(args, journals);
        JournalReader reader = journals.require(id);
        long from = seqNr("diff", args.get("diff", null));
        long to = seqNr("diff", extra.get(0));
        StateDiff diff = StateDiff.between(Replay.stateAt(reader, id, from).state(),
            Replay.stateAt(reader, id, to).state());
        out.print(json ? ReplayJson.diff(id, from, to, diff) : ReplayText.diff(id, from, to, diff));
      } else if (args.has("id")) {
        String id = args.get("id", null);
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

  private static int compare(Journals a, Path other, Args args, boolean json, PrintStream out)
      throws ReplayException {
    try (Journals b = Journals.open(other)) {
      List<Comparison> comparisons =
          Replay.compare(a, b, Optional.ofNullable(args.get("id", null)));
      out.print(json ? ReplayJson.compare(a.path(), b.path(), comparisons)
          : ReplayText.compare(a.path(), b.path(), comparisons));
      return comparisons.stream().anyMatch(c -> c.verdict() == Verdict.DIVERGED) ? 1 : 0;
    }
  }

  private static String id(Args args, Journals journals) throws ReplayException {
    return args.has("id") ? args.get("id", null) : journals.onlyId();
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

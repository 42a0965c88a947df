package io.rackfabric.persistence.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The journal files a {@code --journal} path names: one {@code *.mv.db} file, or every one
 * directly in a data folder (one per node). All are opened read-only up front, so that a missing,
 * locked, corrupt or foreign file is reported before anything is printed.
 */
public final class Journals implements AutoCloseable {

  private final Path path;
  private final List<JournalReader> readers;

  private Journals(Path path, List<JournalReader> readers) {
    this.path = path;
    this.readers = List.copyOf(readers);
  }

  public static Journals open(Path path) throws ReplayException {
    Path p = path.toAbsolutePath().normalize();
    if (!Files.exists(p)) {
      throw new ReplayException(p + ": no such file or folder");
    }
    List<Path> files;
    if (Files.isDirectory(p)) {
      try (Stream<Path> list = Files.list(p)) {
        files = list.filter(f -> f.getFileName().toString().endsWith(JournalReader.SUFFIX))
            .filter(Files::isRegularFile).sorted().toList();
      } catch (IOException e) {
        throw new ReplayException(p + ": cannot list the folder: " + JournalReader.oneLine(e));
      }
      if (files.isEmpty()) {
        throw new ReplayException(p + ": no journal in this folder (no *" + JournalReader.SUFFIX
            + " file)");
      }
    } else {
      files = List.of(p);
    }
    List<JournalReader> opened = new ArrayList<>();
    try {
      for (Path f : files) {
        opened.add(JournalReader.open(f));
      }
    } catch (ReplayException e) {
      opened.forEach(JournalReader::close);
      throw e;
    }
    return new Journals(p, opened);
  }

  /** The path as given, absolute. */
  public Path path() {
    return path;
  }

  public List<JournalReader> readers() {
    return readers;
  }

  /** Every persistence id of every file, by file then id. */
  public List<IdSummary> summaries() throws ReplayException {
    List<IdSummary> out = new ArrayList<>();
    for (JournalReader r : readers) {
      out.addAll(r.summaries());
    }
    return out;
  }

  public SortedSet<String> ids() throws ReplayException {
    SortedSet<String> ids = new TreeSet<>();
    summaries().forEach(s -> ids.add(s.persistenceId()));
    return ids;
  }

  /**
   * The file holding {@code persistenceId}, empty when none does. Two files of one folder holding
   * it (two nodes' copies of one controller) cannot be told apart: the user must name one.
   */
  public Optional<JournalReader> find(String persistenceId) throws ReplayException {
    List<JournalReader> holding = new ArrayList<>();
    for (JournalReader r : readers) {
      if (r.summary(persistenceId).isPresent()) {
        holding.add(r);
      }
    }
    if (holding.size() > 1) {
      throw new ReplayException("id=" + persistenceId + " is in " + holding.size()
          + " journals of " + path + " (" + String.join(", ", holding.stream()
              .map(r -> r.file().getFileName().toString()).toList())
          + "): give one file as --journal");
    }
    return holding.stream().findFirst();
  }

  public JournalReader require(String persistenceId) throws ReplayException {
    Optional<JournalReader> found = find(persistenceId);
    if (found.isEmpty()) {
      throw new ReplayException(
          "id=" + persistenceId + " is not in " + path + " (ids: " + known() + ")");
    }
    return found.get();
  }

  /** The one persistence id, for commands given none; fails listing them when there are more. */
  public String onlyId() throws ReplayException {
    SortedSet<String> ids = ids();
    if (ids.size() != 1) {
      throw new ReplayException(path + " holds " + (ids.isEmpty() ? "no persistence id"
          : ids.size() + " persistence ids (" + String.join(", ", ids) + "): choose one with --id"));
    }
    return ids.first();
  }

  private String known() throws ReplayException {
    SortedSet<String> ids = ids();
    return ids.isEmpty() ? "none" : String.join(", ", ids);
  }

  @Override
  public void close() {
    readers.forEach(JournalReader::close);
  }
}

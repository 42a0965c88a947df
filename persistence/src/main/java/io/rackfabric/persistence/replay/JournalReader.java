package io.rackfabric.persistence.replay;

import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.ControllerState;
import io.rackfabric.persistence.journal.JournalPaths;
import io.rackfabric.persistence.kryo.JournalSerializer;
import io.rackfabric.persistence.kryo.VersionedCodec;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One node's journal file ({@code <node>.mv.db}, written by akka-persistence-jdbc through
 * {@code JournalConfig}), read through plain JDBC without an actor system. It only reads: H2 opens
 * the file with {@code ACCESS_MODE_DATA=r} (its store is then read-only and refuses any write),
 * {@code IFEXISTS=TRUE} (never creates a database) and {@code TRACE_LEVEL_FILE=0} (no trace file
 * beside it), and nothing here creates a table.
 *
 * <p>Rows are the plugin's default H2 schema: table {@code event_journal} with the event's bytes
 * in {@code event_payload} as the bound Akka serializer wrote them, its serializer id in
 * {@code event_ser_id} and manifest in {@code event_ser_manifest}; table {@code snapshot}
 * likewise. Both are decoded by {@link JournalSerializer#decode}.
 */
public final class JournalReader implements AutoCloseable {

  public static final String SUFFIX = JournalPaths.SUFFIX;

  private static final int H2_DATABASE_ALREADY_OPEN = 90020;
  private static final int H2_WRONG_USER_OR_PASSWORD = 28000;
  private static final List<String> TABLES = List.of("event_journal", "snapshot");

  // Files readers of this JVM have open (with how many readers): H2 shares one read-only database
  // among them, whose lock the check below must not take for a node's.
  private static final Map<Path, Integer> OPEN = new HashMap<>();

  private final Path file;
  private final Connection connection;
  private final VersionedCodec codec = VersionedCodec.shared();
  private boolean closed;

  private JournalReader(Path file, Connection connection) {
    this.file = file;
    this.connection = connection;
  }

  /** Opens {@code file}, a {@code *.mv.db}; fails naming it when it is not a readable journal. */
  public static synchronized JournalReader open(Path file) throws ReplayException {
    Path f = file.toAbsolutePath().normalize();
    String path = f.toString();
    if (!path.endsWith(SUFFIX)) {
      throw new ReplayException(f + ": not a journal file (an H2 file ends in " + SUFFIX + ")");
    }
    if (!Files.isRegularFile(f)) {
      throw new ReplayException(f + ": no such file");
    }
    refuseIfEmpty(f);
    String url;
    try {
      // Anyone may have named the file: a name holding ";INIT=..." would have H2 run it as SQL.
      url = JournalPaths.urlOfFile(f, "DATABASE_TO_UPPER=false", "ACCESS_MODE_DATA=r",
          "IFEXISTS=TRUE", "TRACE_LEVEL_FILE=0");
    } catch (IllegalArgumentException e) {
      throw new ReplayException(JournalPaths.printable(path) + ": not opened: " + e.getMessage());
    }
    if (!OPEN.containsKey(f)) {
      refuseIfLocked(f);
    }
    Connection c;
    try {
      c = DriverManager.getConnection(url);
    } catch (SQLException e) {
      throw new ReplayException(f + ": " + openFailure(e));
    }
    try {
      c.setReadOnly(true);
      checkTables(c, f);
      OPEN.merge(f, 1, Integer::sum);
      return new JournalReader(f, c);
    } catch (SQLException | ReplayException | RuntimeException e) {
      closeQuietly(c);
      if (e instanceof ReplayException r) {
        throw r;
      }
      throw new ReplayException(f + ": cannot be read as a journal: " + oneLine(e));
    }
  }

  /** H2 reads a 0-byte file as a broken store and answers with a channel error naming none. */
  private static void refuseIfEmpty(Path f) throws ReplayException {
    try {
      if (Files.size(f) == 0) {
        throw new ReplayException("journal " + f + " is empty (0 bytes): not an H2 database");
      }
    } catch (IOException e) {
      throw new ReplayException(f + ": cannot be read: " + oneLine(e));
    }
  }

  /**
   * A node that has its journal open holds a lock on the file. Checked before H2 sees the file:
   * within one JVM H2 would hand out a read-write connection to the database already open there
   * instead of refusing.
   */
  private static void refuseIfLocked(Path f) throws ReplayException {
    String inUse = f + ": in use (locked by a running node or an open connection);"
        + " stop the node or replay a copy of the file";
    try (FileChannel channel = FileChannel.open(f, StandardOpenOption.READ)) {
      FileLock lock = channel.tryLock(0, Long.MAX_VALUE, true);
      if (lock == null) {
        throw new ReplayException(inUse);
      }
      lock.release();
    } catch (OverlappingFileLockException e) {
      throw new ReplayException(inUse);
    } catch (IOException e) {
      throw new ReplayException(f + ": cannot be read: " + oneLine(e));
    }
  }

  private static String openFailure(SQLException e) {
    if (e.getErrorCode() == H2_DATABASE_ALREADY_OPEN) {
      return "in use (locked by a running node); stop the node or replay a copy of the file";
    }
    if (e.getErrorCode() == H2_WRONG_USER_OR_PASSWORD) {
      return "not a journal: an H2 database with its own users (a journal has none)";
    }
    return "corrupt or not an H2 database (H2 error " + e.getErrorCode() + ": " + oneLine(e) + ")";
  }

  private static void checkTables(Connection c, Path f) throws SQLException, ReplayException {
    Set<String> found = new HashSet<>();
    try (PreparedStatement st = c.prepareStatement(
        "SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME IN (?, ?)")) {
      st.setString(1, TABLES.get(0));
      st.setString(2, TABLES.get(1));
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          found.add(rs.getString(1));
        }
      }
    }
    List<String> missing = TABLES.stream().filter(t -> !found.contains(t)).toList();
    if (!missing.isEmpty()) {
      throw new ReplayException(f + ": not a controller journal: an H2 database without the"
          + " journal's table" + (missing.size() > 1 ? "s " : " ") + String.join(" and ", missing));
    }
  }

  public Path file() {
    return file;
  }

  /** Every persistence id with events or snapshots, by id. */
  public List<IdSummary> summaries() throws ReplayException {
    Map<String, long[]> ids = new TreeMap<>(); // id -> {events, highest, snapshot}
    query("SELECT \"persistence_id\", SUM(CASE WHEN \"deleted\" THEN 0 ELSE 1 END),"
        + " MAX(\"sequence_number\") FROM \"event_journal\" GROUP BY \"persistence_id\"",
        List.of(), rs -> ids.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3), -1}));
    query("SELECT \"persistence_id\", MAX(\"sequence_number\") FROM \"snapshot\""
        + " GROUP BY \"persistence_id\"",
        List.of(), rs -> ids.computeIfAbsent(rs.getString(1), k -> new long[] {0, 0, -1})[2] =
            rs.getLong(2));
    List<IdSummary> out = new ArrayList<>();
    ids.forEach((id, n) -> out.add(new IdSummary(file, id, n[0], n[1], n[2])));
    return out;
  }

  public Optional<IdSummary> summary(String persistenceId) throws ReplayException {
    return summaries().stream().filter(s -> s.persistenceId().equals(persistenceId)).findFirst();
  }

  /** The events of {@code persistenceId} with {@code after < seqNr <= upTo}, in order. */
  public List<JournalEntry> events(String persistenceId, long after, long upTo)
      throws ReplayException {
    List<JournalEntry> out = new ArrayList<>();
    query("SELECT \"sequence_number\", \"event_ser_id\", \"event_ser_manifest\", \"event_payload\""
        + " FROM \"event_journal\" WHERE \"persistence_id\" = ? AND \"sequence_number\" > ?"
        + " AND \"sequence_number\" <= ? AND NOT \"deleted\" ORDER BY \"sequence_number\"",
        List.of(persistenceId, after, upTo), rs -> out.add(new JournalEntry(rs.getLong(1),
            decode(ControllerEvent.class, persistenceId, rs))));
    return out;
  }

  /**
   * The stored form of every event of {@code persistenceId}, in order: its sequence number, the
   * serializer and manifest it was written with, and the payload's bytes as hexadecimal. Two
   * journals whose lists are equal hold byte for byte the same events (the write timestamps, wall
   * clock, aside): what a determinism check compares.
   */
  public List<String> storedEvents(String persistenceId) throws ReplayException {
    List<String> out = new ArrayList<>();
    query("SELECT \"sequence_number\", \"event_ser_id\", \"event_ser_manifest\", \"event_payload\""
        + " FROM \"event_journal\" WHERE \"persistence_id\" = ? AND NOT \"deleted\" ORDER BY \"sequence_number\"",
        List.of(persistenceId), rs -> out.add(rs.getLong(1) + " " + rs.getInt(2) + " " + rs.getString(3) + " "
            + java.util.HexFormat.of().formatHex(rs.getBytes(4))));
    return out;
  }

  /** The state a snapshot holds and the sequence number of the last event in it. */
  public record Snapshot(long seqNr, ControllerState state) {}

  /** The latest snapshot of {@code persistenceId} at or below {@code seqNr}. */
  public Optional<Snapshot> snapshotAtOrBelow(String persistenceId, long seqNr)
      throws ReplayException {
    List<Snapshot> found = new ArrayList<>(1);
    query("SELECT \"sequence_number\", \"snapshot_ser_id\", \"snapshot_ser_manifest\","
        + " \"snapshot_payload\" FROM \"snapshot\" WHERE \"persistence_id\" = ?"
        + " AND \"sequence_number\" <= ? ORDER BY \"sequence_number\" DESC FETCH FIRST ROW ONLY",
        List.of(persistenceId, seqNr), rs -> found.add(new Snapshot(rs.getLong(1),
            decode(ControllerState.class, persistenceId, rs))));
    return found.stream().findFirst();
  }

  /** A row's value: columns 1-4 are sequence number, serializer id, manifest and bytes. */
  private <T> T decode(Class<T> type, String persistenceId, ResultSet row)
      throws SQLException, ReplayException {
    long seqNr = row.getLong(1);
    int serializerId = row.getInt(2);
    String manifest = row.getString(3);
    if (serializerId != JournalSerializer.IDENTIFIER) {
      throw new ReplayException(where(persistenceId, seqNr) + ": written by serializer id "
          + serializerId + ", not the journal serializer (" + JournalSerializer.IDENTIFIER
          + "): not a controller journal");
    }
    Object value;
    try {
      value = JournalSerializer.decode(codec, row.getBytes(4), manifest);
    } catch (RuntimeException e) {
      throw new ReplayException(where(persistenceId, seqNr) + ": cannot decode (manifest="
          + manifest + "): " + oneLine(e));
    }
    if (!type.isInstance(value)) {
      throw new ReplayException(where(persistenceId, seqNr) + ": holds a "
          + value.getClass().getSimpleName() + ", not a " + type.getSimpleName());
    }
    return type.cast(value);
  }

  private String where(String persistenceId, long seqNr) {
    return file + ": id=" + persistenceId + " seqNr=" + seqNr;
  }

  private interface RowReader {
    void read(ResultSet rs) throws SQLException, ReplayException;
  }

  private void query(String sql, List<Object> parameters, RowReader rows) throws ReplayException {
    try (PreparedStatement st = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.size(); i++) {
        st.setObject(i + 1, parameters.get(i));
      }
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          rows.read(rs);
        }
      }
    } catch (SQLException e) {
      throw new ReplayException(file + ": cannot be read as a journal (corrupt?): " + oneLine(e));
    }
  }

  @Override
  public void close() {
    synchronized (JournalReader.class) {
      if (closed) {
        return;
      }
      closed = true;
      OPEN.computeIfPresent(file, (f, n) -> n > 1 ? n - 1 : null);
      closeQuietly(connection);
    }
  }

  private static void closeQuietly(Connection c) {
    try {
      c.close();
    } catch (SQLException e) {
      // read-only: nothing to lose
    }
  }

  /** The first line of an exception's message: H2 appends SQL and codes on further lines. */
  static String oneLine(Exception e) {
    String m = e.getMessage() == null ? e.toString() : e.getMessage();
    int nl = m.indexOf('\n');
    return (nl < 0 ? m : m.substring(0, nl)).strip();
  }
}

package io.rackfabric.persistence.replay;

import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.journal.JournalPaths;
import io.rackfabric.persistence.kryo.JournalSerializer;
import io.rackfabric.persistence.kryo.VersionedCodec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * An H2 file written by hand with akka-persistence-jdbc's own H2 schema (the script in its jar),
 * for journals an actor system would not write: foreign rows, or a long change log made fast.
 */
final class PluginSchemaFile implements AutoCloseable {

  private final Connection connection;

  /** Creates {@code <dir>/<node>.mv.db} with the plugin's tables, open read-write until closed. */
  PluginSchemaFile(Path dir, String node) throws SQLException, IOException {
    connection = DriverManager.getConnection(JournalPaths.url(dir, node, "DATABASE_TO_UPPER=false"));
    String script;
    try (InputStream in = getClass().getClassLoader()
        .getResourceAsStream("schema/h2/h2-create-schema.sql")) {
      script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    try (Statement st = connection.createStatement()) {
      for (String sql : script.split(";")) {
        if (!sql.isBlank()) {
          st.execute(sql);
        }
      }
    }
  }

  /** One row as the plugin writes it, with the serializer id and manifest given. */
  void insert(String persistenceId, long seqNr, int serializerId, String manifest, byte[] payload)
      throws SQLException {
    try (PreparedStatement st = connection.prepareStatement("INSERT INTO \"event_journal\""
        + " (\"persistence_id\", \"sequence_number\", \"writer\", \"write_timestamp\","
        + " \"adapter_manifest\", \"event_payload\", \"event_ser_id\", \"event_ser_manifest\")"
        + " VALUES (?, ?, 'test', 0, '', ?, ?, ?)")) {
      st.setString(1, persistenceId);
      st.setLong(2, seqNr);
      st.setBytes(3, payload);
      st.setInt(4, serializerId);
      st.setString(5, manifest);
      st.executeUpdate();
    }
  }

  /** The events as the journal serializer writes them, numbered from 1. */
  void insertAll(String persistenceId, List<ControllerEvent> events) throws SQLException {
    VersionedCodec codec = VersionedCodec.shared();
    connection.setAutoCommit(false);
    for (int i = 0; i < events.size(); i++) {
      ControllerEvent e = events.get(i);
      insert(persistenceId, i + 1, JournalSerializer.IDENTIFIER, codec.manifest(e.getClass()),
          codec.write(e));
    }
    connection.commit();
    connection.setAutoCommit(true);
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}

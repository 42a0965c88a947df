package io.rackfabric.persistence.journal;

import akka.Done;
import akka.actor.ClassicActorSystemProvider;
import akka.persistence.jdbc.testkit.javadsl.SchemaUtils;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.rackfabric.persistence.PersistenceSettings;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.regex.Pattern;

/**
 * The Akka config of one node's journal: an embedded H2 file {@code <dataDir>/<node>.mv.db}
 * through akka-persistence-jdbc, journal and snapshot store (and the read journal, for the replay
 * debugger) sharing one small connection pool. Put it in front of the node's config:
 * {@code JournalConfig.h2(dir, "node-a", 2).withFallback(ConfigFactory.load())}, then call
 * {@link #createSchema} once after the system starts and before the first persistent actor.
 */
public final class JournalConfig {

  private static final Pattern NODE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");

  private JournalConfig() {}

  /** With the data folder and pool size from {@code settings}. */
  public static Config h2(PersistenceSettings settings, String node) {
    return h2(settings.dataDir(), node, settings.journalConnections());
  }

  public static Config h2(Path dataDir, String node, int connections) {
    if (node == null || !NODE.matcher(node).matches()) {
      throw new IllegalArgumentException("node=" + node + " is not a plain file name ([A-Za-z0-9_.-])");
    }
    if (connections < 1) {
      throw new IllegalArgumentException("connections=" + connections + " must be at least 1");
    }
    // DATABASE_TO_UPPER=false: the plugin's H2 schema quotes lower-case table names.
    String url = "jdbc:h2:file:" + journalFile(dataDir, node) + ";DATABASE_TO_UPPER=false";
    Config db = ConfigFactory.parseMap(Map.of(
        "profile", "slick.jdbc.H2Profile$",
        "db.url", url,
        "db.driver", "org.h2.Driver",
        "db.connectionPool", "HikariCP",
        "db.numThreads", connections,
        "db.maxConnections", connections,
        "db.minConnections", 1,
        "db.keepAliveConnection", true));
    return ConfigFactory.empty()
        .withValue("akka.persistence.journal.plugin", ConfigValueFactory.fromAnyRef("jdbc-journal"))
        .withValue("akka.persistence.snapshot-store.plugin",
            ConfigValueFactory.fromAnyRef("jdbc-snapshot-store"))
        .withValue("akka-persistence-jdbc.shared-databases.slick", db.root())
        .withValue("jdbc-journal.use-shared-db", ConfigValueFactory.fromAnyRef("slick"))
        .withValue("jdbc-snapshot-store.use-shared-db", ConfigValueFactory.fromAnyRef("slick"))
        .withValue("jdbc-read-journal.use-shared-db", ConfigValueFactory.fromAnyRef("slick"))
        .withValue("jdbc-durable-state-store.use-shared-db", ConfigValueFactory.fromAnyRef("slick"));
  }

  /** The journal file's path without H2's {@code .mv.db} suffix, absolute. */
  public static Path journalFile(Path dataDir, String node) {
    return dataDir.toAbsolutePath().normalize().resolve(node);
  }

  /** Creates the journal's tables if they are not there yet (first start of a node). */
  public static CompletionStage<Done> createSchema(ClassicActorSystemProvider system) {
    return SchemaUtils.createIfNotExists(system);
  }
}

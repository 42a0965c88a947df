package io.rackfabric.persistence.journal;

import akka.Done;
import akka.actor.ClassicActorSystemProvider;
import akka.actor.CoordinatedShutdown;
import akka.persistence.jdbc.db.SlickExtension;
import akka.persistence.jdbc.db.SlickExtensionImpl;
import akka.persistence.jdbc.testkit.javadsl.SchemaUtils;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.rackfabric.persistence.PersistenceSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The Akka config of one node's journal: an embedded H2 file {@code <dataDir>/<node>.mv.db} (its
 * URL built and checked by {@link JournalPaths}) through akka-persistence-jdbc, journal and
 * snapshot store (and the read journal, for the replay debugger) sharing one small connection
 * pool. Put it in front of the node's config:
 * {@code JournalConfig.h2(dir, "node-a", 2).withFallback(ConfigFactory.load())}, then call
 * {@link #createSchema} once after the system starts and before the first persistent actor.
 */
public final class JournalConfig {

  private static final String URL = "akka-persistence-jdbc.shared-databases.slick.db.url";

  private JournalConfig() {}

  /** With the data folder and pool size from {@code settings}. */
  public static Config h2(PersistenceSettings settings, String node) {
    return h2(settings.dataDir(), node, settings.journalConnections());
  }

  /**
   * Also creates {@code dataDir} owner-only when it is missing ({@link JournalPaths#createFolder}),
   * so that H2 never makes it with the umask's permissions.
   *
   * @throws IllegalArgumentException naming the value when {@code dataDir} or {@code node} cannot
   *     go into an H2 URL ({@link JournalPaths}), or {@code connections} is below 1
   * @throws UncheckedIOException when the folder cannot be created
   */
  public static Config h2(Path dataDir, String node, int connections) {
    if (connections < 1) {
      throw new IllegalArgumentException("connections=" + connections + " must be at least 1");
    }
    // DATABASE_TO_UPPER=false: the plugin's H2 schema quotes lower-case table names.
    // DB_CLOSE_ON_EXIT=FALSE: H2's own JVM shutdown hook would close the database under the actor
    // system still writing to it ("Database is already closed"); the node's coordinated shutdown
    // closes it instead, in order (closeOnShutdown).
    // WRITE_DELAY=0: H2 writes a commit to the file before the commit returns. With its default
    // (500 ms) a killed JVM loses what it committed in the last half second: an event the
    // controller had persisted and acknowledged was missing from its journal after a kill, or not,
    // as the wall clock fell (JournalDurabilityTest). The file is not fsynced: a kill loses
    // nothing, a power cut of the machine may.
    String url = JournalPaths.url(dataDir, node, "DATABASE_TO_UPPER=false", "DB_CLOSE_ON_EXIT=FALSE",
        "WRITE_DELAY=0");
    Path dir = JournalPaths.folder(dataDir);
    try {
      JournalPaths.createFolder(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("journal folder " + dir + ": cannot be created: " + e, e);
    }
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

  /** The journal's path without H2's {@code .mv.db} suffix, absolute; checked as in {@link #h2}. */
  public static Path journalFile(Path dataDir, String node) {
    return JournalPaths.journal(dataDir, node);
  }

  /**
   * Creates the journal's tables if they are not there yet (first start of a node), then makes the
   * journal file owner-only: H2 created it with the umask's permissions. A file whose permissions
   * cannot be changed (another user's) is logged, not fatal: the node still runs on it.
   */
  public static CompletionStage<Done> createSchema(ClassicActorSystemProvider system) {
    akka.actor.ActorSystem classic = system.classicSystem();
    Config config = classic.settings().config();
    closeOnShutdown(classic);
    Optional<Path> file = config.hasPath(URL) ? JournalPaths.fileOf(config.getString(URL))
        : Optional.empty();
    return SchemaUtils.createIfNotExists(system).thenApply(done -> {
      file.ifPresent(f -> {
        try {
          JournalPaths.restrictToOwner(f);
        } catch (IOException | RuntimeException e) {
          classic.log().warning("journal file {}: cannot be made owner-only (rw-------): {}", f, e);
        }
      });
      return done;
    });
  }

  /**
   * Closes the journal's connection pool, and so the H2 database (its last connection gone), in
   * the coordinated shutdown's phase before the actor system terminates: after the cluster has
   * let the node go and before its actors are stopped, whether the shutdown came from the code,
   * the cluster or the JVM's exit (Ctrl-C). The plugin closes the pool again on termination,
   * which is then a no-op. Registered once per system by {@link #createSchema}.
   */
  static void closeOnShutdown(akka.actor.ActorSystem system) {
    Config config = system.settings().config();
    if (!config.hasPath(URL)) {
      return; // not a journal of this class: the plugin closes its own database
    }
    CoordinatedShutdown.get(system).addTask(CoordinatedShutdown.PhaseBeforeActorSystemTerminate(),
        "close-journal", () -> {
          SlickExtensionImpl slick = (SlickExtensionImpl) SlickExtension.get(system);
          slick.database(config.getConfig("jdbc-journal")).database().close();
          return CompletableFuture.completedFuture(Done.getInstance());
        });
  }
}

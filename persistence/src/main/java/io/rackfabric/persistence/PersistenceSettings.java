package io.rackfabric.persistence;

import com.typesafe.config.Config;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code rackfabric.persistence}, read once. See reference.conf for each key's unit and default.
 *
 * @param dataDir where each node's journal file lives
 * @param maxInFlight a controller's accepted-but-unacknowledged operations before OVERLOADED
 * @param replicationTimeout how long the master waits for the backup to persist, wall time
 * @param journalConnections connections (and threads) of a node's H2 journal pool
 */
public record PersistenceSettings(
    Path dataDir, int maxInFlight, Duration replicationTimeout, int journalConnections) {

  /** Stash capacity of Akka's persistent actors; a larger in-flight bound could overrun it. */
  public static final int STASH_CAPACITY = 4096;

  public PersistenceSettings {
    if (dataDir == null) {
      throw new IllegalArgumentException("data-dir is missing");
    }
    if (maxInFlight < 1 || maxInFlight > STASH_CAPACITY / 2) {
      throw new IllegalArgumentException("max-in-flight=" + maxInFlight + " not in [1,"
          + STASH_CAPACITY / 2 + "] (must stay well under the stash capacity " + STASH_CAPACITY + ")");
    }
    if (replicationTimeout == null || replicationTimeout.isNegative() || replicationTimeout.isZero()) {
      throw new IllegalArgumentException("replication-timeout=" + replicationTimeout + " must be positive");
    }
    if (journalConnections < 1 || journalConnections > 64) {
      throw new IllegalArgumentException("journal-connections=" + journalConnections + " not in [1,64]");
    }
  }

  /** From the application's config (reference.conf supplies the defaults). */
  public static PersistenceSettings create(Config config) {
    Config c = config.getConfig("rackfabric.persistence");
    String dir = c.getString("data-dir");
    Path path;
    try {
      path = Path.of(dir);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("data-dir=" + dir + " is not a path: " + e.getReason());
    }
    if (dir.isBlank()) {
      throw new IllegalArgumentException("data-dir=\"" + dir + "\" is blank");
    }
    return new PersistenceSettings(path, c.getInt("max-in-flight"),
        c.getDuration("replication-timeout"), c.getInt("journal-connections"));
  }
}

package io.rackfabric.host.controlplane;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import io.rackfabric.persistence.PersistenceSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code rackfabric.host.controlplane}, read once (see reference.conf for units and defaults).
 * Model-time values are nanoseconds of emulated time. The time-dilation factor is the fabric's
 * ({@code rackfabric.fabric.time-dilation}) and the replication timeout the persistence module's
 * ({@code rackfabric.persistence.replication-timeout}): one value each for the whole emulation.
 *
 * @param heartbeatIntervalNs the master sends a heartbeat this often, model ns
 * @param missedHeartbeats intervals without a heartbeat after which the backup suspects the master
 * @param portReassignmentNs service time of one switch chip's partition update, model ns
 * @param rebootTimeNs the backup's reboot from the running image, model ns
 * @param restartTimeNs the whole-system restart of the baseline, model ns
 * @param linkLatencyNs one-way latency of the MMH-BMH link, model ns
 * @param takeover Ladon's fail-over or the baseline's restart
 * @param maxInFlight operations a master has with its controller before OVERLOADED
 * @param takeoverQueue requests held while no controller serves (take-over, switchover)
 * @param tdf time-dilation factor: a model second lasts this many wall seconds
 * @param replicationTimeout wall time the master waits for the backup to persist
 * @param modelTimeHeartbeats the heartbeats and the suspicion are model-time events of the two
 *     hosts' endpoints (a run under the model-time kernel), not wall-clock timers
 * @param peerAnswerTimeoutNs how long a rejoining host waits for the master's answer, and a
 *     master quiescing for a switchover for the backup's, model ns
 * @param rejoinWriteEvents events per journal write of a rejoining host's new tenure
 * @param rejoinChunkEvents events per chunk of a rejoin's state transfer (one message each)
 * @param linkGbps the MMH-BMH link's bandwidth, Gbit/s: a rejoin's chunk is on it for its bytes' time
 * @param keepFabricDatabase the management hosts keep the fabric manager's topology database in the
 *     controller's state (its endpoint's changes become controller events; a take-over of the fabric
 *     manager starts from the state)
 */
public record ControlPlaneSettings(
    long heartbeatIntervalNs,
    double missedHeartbeats,
    long portReassignmentNs,
    long rebootTimeNs,
    long restartTimeNs,
    long linkLatencyNs,
    Takeover takeover,
    int maxInFlight,
    int takeoverQueue,
    double tdf,
    Duration replicationTimeout,
    boolean modelTimeHeartbeats,
    long peerAnswerTimeoutNs,
    int rejoinWriteEvents,
    int rejoinChunkEvents,
    double linkGbps,
    boolean keepFabricDatabase) {

  private static final String PREFIX = "rackfabric.host.controlplane: ";

  /**
   * The most events a chunk of a rejoin's transfer may hold: a page event takes about 20 bytes on
   * the wire (Kryo), events with longer names more, so 2,000 stay well under Artery's default frame
   * of 256 KiB ({@code RejoinWireSizeTest}).
   */
  static final int MAX_CHUNK_EVENTS = 2_000;

  public ControlPlaneSettings {
    List<String> errors = new ArrayList<>();
    if (heartbeatIntervalNs <= 0) {
      errors.add("heartbeat-interval=" + heartbeatIntervalNs + "ns must be positive");
    }
    if (!(missedHeartbeats > 1) || Double.isInfinite(missedHeartbeats)) {
      errors.add("missed-heartbeats=" + missedHeartbeats + " must be more than 1");
    }
    if (portReassignmentNs < 0) {
      errors.add("port-reassignment=" + portReassignmentNs + "ns is negative");
    }
    if (rebootTimeNs < 0) {
      errors.add("reboot-time=" + rebootTimeNs + "ns is negative");
    }
    if (restartTimeNs < 0) {
      errors.add("restart-time=" + restartTimeNs + "ns is negative");
    }
    if (linkLatencyNs < 0) {
      errors.add("replication-link-latency=" + linkLatencyNs + "ns is negative");
    }
    if (takeover == null) {
      errors.add("takeover is missing");
    }
    int maxStashSafe = PersistenceSettings.STASH_CAPACITY / 2;
    if (maxInFlight < 1 || maxInFlight > maxStashSafe) {
      errors.add("max-in-flight=" + maxInFlight + " not in [1," + maxStashSafe
          + "] (the controller's stash holds " + PersistenceSettings.STASH_CAPACITY + ")");
    }
    if (takeoverQueue < 0) {
      errors.add("takeover-queue=" + takeoverQueue + " is negative");
    }
    if (!(tdf > 0) || Double.isInfinite(tdf)) {
      errors.add("time-dilation=" + tdf + " must be positive");
    }
    if (replicationTimeout == null || replicationTimeout.isNegative() || replicationTimeout.isZero()) {
      errors.add("replication-timeout=" + replicationTimeout + " must be positive");
    }
    if (peerAnswerTimeoutNs <= 0) {
      errors.add("peer-answer-timeout=" + peerAnswerTimeoutNs + "ns must be positive");
    }
    if (rejoinWriteEvents < 1) {
      errors.add("rejoin-write-events=" + rejoinWriteEvents + " must be at least 1");
    }
    if (rejoinChunkEvents < 1 || rejoinChunkEvents > MAX_CHUNK_EVENTS) {
      errors.add("rejoin-chunk-events=" + rejoinChunkEvents + " not in [1," + MAX_CHUNK_EVENTS
          + "] (a chunk is one message, and Artery's frame is 256 KiB)");
    }
    if (!(linkGbps > 0) || Double.isInfinite(linkGbps)) {
      errors.add("replication-link-gbps=" + linkGbps + " must be positive");
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(PREFIX + String.join("; ", errors));
    }
  }

  /** Reads {@code rackfabric.host.controlplane} of {@code root}, naming every bad value at once. */
  public static ControlPlaneSettings create(Config root) {
    Config c = root.getConfig("rackfabric.host.controlplane");
    List<String> errors = new ArrayList<>();
    long interval = nanos(c, "heartbeat-interval", errors);
    long reassign = nanos(c, "port-reassignment", errors);
    long reboot = nanos(c, "reboot-time", errors);
    long restart = nanos(c, "restart-time", errors);
    long latency = nanos(c, "replication-link-latency", errors);
    long answer = nanos(c, "peer-answer-timeout", errors);
    String mode = c.getString("takeover");
    Takeover takeover = null;
    try {
      takeover = Takeover.valueOf(mode.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      errors.add("takeover=" + mode + " not in {ladon, restart}");
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(PREFIX + String.join("; ", errors));
    }
    return new ControlPlaneSettings(interval, c.getDouble("missed-heartbeats"), reassign, reboot,
        restart, latency, takeover, c.getInt("max-in-flight"), c.getInt("takeover-queue"),
        root.getDouble("rackfabric.fabric.time-dilation"),
        root.getDuration("rackfabric.persistence.replication-timeout"), c.getBoolean("model-time-heartbeats"), answer,
        c.getInt("rejoin-write-events"), c.getInt("rejoin-chunk-events"), c.getDouble("replication-link-gbps"),
        c.getBoolean("keep-fabric-database"));
  }

  /** Without the fabric manager's database in the controller's state. */
  public ControlPlaneSettings(long heartbeatIntervalNs, double missedHeartbeats, long portReassignmentNs,
      long rebootTimeNs, long restartTimeNs, long linkLatencyNs, Takeover takeover, int maxInFlight,
      int takeoverQueue, double tdf, Duration replicationTimeout, boolean modelTimeHeartbeats,
      long peerAnswerTimeoutNs, int rejoinWriteEvents, int rejoinChunkEvents, double linkGbps) {
    this(heartbeatIntervalNs, missedHeartbeats, portReassignmentNs, rebootTimeNs, restartTimeNs, linkLatencyNs,
        takeover, maxInFlight, takeoverQueue, tdf, replicationTimeout, modelTimeHeartbeats, peerAnswerTimeoutNs,
        rejoinWriteEvents, rejoinChunkEvents, linkGbps, false);
  }

  /** The model time {@code bytes} take to go onto the MMH-BMH link at its bandwidth, ns (rounded up). */
  public long serializationNs(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes=" + bytes + " is negative");
    }
    return (long) Math.ceil(bytes * 8 / linkGbps);
  }

  /** The model time without a heartbeat after which the master is suspected. */
  public long suspicionAfterNs() {
    return (long) (heartbeatIntervalNs * missedHeartbeats);
  }

  /** A model duration as wall time through the time-dilation factor. */
  public Duration wall(long modelNs) {
    return Duration.ofNanos(Math.max(1, (long) (modelNs * tdf)));
  }

  public ControlPlaneSettings withTakeover(Takeover mode) {
    return new ControlPlaneSettings(heartbeatIntervalNs, missedHeartbeats, portReassignmentNs,
        rebootTimeNs, restartTimeNs, linkLatencyNs, mode, maxInFlight, takeoverQueue, tdf,
        replicationTimeout, modelTimeHeartbeats, peerAnswerTimeoutNs, rejoinWriteEvents, rejoinChunkEvents, linkGbps, keepFabricDatabase);
  }

  public ControlPlaneSettings withRejoinWriteEvents(int events) {
    return new ControlPlaneSettings(heartbeatIntervalNs, missedHeartbeats, portReassignmentNs,
        rebootTimeNs, restartTimeNs, linkLatencyNs, takeover, maxInFlight, takeoverQueue, tdf,
        replicationTimeout, modelTimeHeartbeats, peerAnswerTimeoutNs, events, rejoinChunkEvents, linkGbps, keepFabricDatabase);
  }

  public ControlPlaneSettings withRejoinChunkEvents(int events) {
    return new ControlPlaneSettings(heartbeatIntervalNs, missedHeartbeats, portReassignmentNs,
        rebootTimeNs, restartTimeNs, linkLatencyNs, takeover, maxInFlight, takeoverQueue, tdf,
        replicationTimeout, modelTimeHeartbeats, peerAnswerTimeoutNs, rejoinWriteEvents, events, linkGbps, keepFabricDatabase);
  }

  private static long nanos(Config c, String key, List<String> errors) {
    try {
      return c.getDuration(key).toNanos();
    } catch (ConfigException.BadValue e) {
      errors.add(key + "=" + c.getValue(key).unwrapped() + " is not a duration (say 100ms)");
      return 1;
    }
  }
}

package io.rackfabric.fabric.management;

/**
 * The secondary fabric manager's copy of the primary's topology database, kept up to date from
 * the {@link FmDatabaseUpdate} messages the primary sends ({@link DatabaseShipper}). Messages are
 * numbered one after the other: one that is not the next expected, or a heartbeat saying more
 * were sent than arrived, is a gap; the copy is then stale until a full copy starts afresh, and the
 * secondary asks for one once ({@link FmDatabaseResync}). The copy is usable for a take-over only
 * when it holds a full copy, no gap since, and its last update arrived whole. Plain, no clock.
 * Not thread-safe.
 */
public final class DatabaseReplica {

  /** What the secondary took: messages, updates applied whole, gaps seen, full copies asked for. */
  public record Counts(long messages, long updatesApplied, long gaps, long resyncsAsked, long lastNumber)
      implements io.rackfabric.fabric.wire.WireMessage {}

  private TopologyDatabase copy = new TopologyDatabase();
  private boolean haveFull;
  private boolean stale;
  private boolean complete = true;
  private boolean asked;
  private long expected;
  private long messages;
  private long updatesApplied;
  private long gaps;
  private long resyncsAsked;

  /**
   * Takes one message. True when the secondary should now ask for a full copy (the first time a
   * gap is seen since the last full copy began).
   */
  public boolean onUpdate(FmDatabaseUpdate m) {
    messages++;
    if (m.full() && m.segment() == 0) {
      copy = new TopologyDatabase();
      haveFull = true;
      stale = false;
      asked = false;
    } else if (m.number() != expected) {
      expected = m.number() + 1;
      return gap();
    } else if (stale) {
      expected = m.number() + 1; // nothing to apply to until a full copy starts
      return false;
    }
    expected = m.number() + 1;
    m.entries().applyTo(copy);
    complete = m.last();
    if (complete) {
      updatesApplied++;
    }
    return false;
  }

  /**
   * A heartbeat said the primary has sent messages up to number {@code lastNumber} (-1: none):
   * true when some never arrived and the secondary should now ask for a full copy.
   */
  public boolean onHeartbeat(long lastNumber) {
    if (lastNumber < expected) {
      return false;
    }
    expected = lastNumber + 1;
    return gap();
  }

  private boolean gap() {
    gaps++;
    stale = true;
    complete = false;
    if (asked) {
      return false;
    }
    asked = true;
    resyncsAsked++;
    return true;
  }

  /** The number of the next message expected: what a request for a full copy carries. */
  public long expected() {
    return expected;
  }

  /** Whether the copy can be taken over: a full copy, no gap since, the last update whole. */
  public boolean usable() {
    return haveFull && !stale && complete;
  }

  /** The copy as it stands (devices with the empty route: routes are the primary's own). */
  public TopologyDatabase copy() {
    return copy;
  }

  /**
   * The copy as the secondary on device {@code own} takes it over when the primary on device
   * {@code dead} died: re-rooted at {@code own}, the dead device and what only it reached left out
   * ({@link TopologyDatabase#rerooted}); null when the copy is not {@link #usable}.
   */
  public TopologyDatabase takeOver(long own, long dead) {
    return usable() ? copy.rerooted(own, dead) : null;
  }

  public Counts counts() {
    return new Counts(messages, updatesApplied, gaps, resyncsAsked, expected - 1);
  }
}

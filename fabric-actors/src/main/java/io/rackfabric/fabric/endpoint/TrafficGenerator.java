package io.rackfabric.fabric.endpoint;

/**
 * An endpoint's traffic generator: one {@link TrafficPlan} at a time, its k-th request stamped
 * {@code start + k * interval}. Free-running it keeps a few requests queued ahead on the link;
 * under the model-time kernel ({@link Port#paced}) it issues each request at its own model time,
 * never ahead of it, since a request issued early would take flow-control credit and queue
 * places from what host software beside it writes meanwhile.
 *
 * <p>A plan that follows routes ({@link TrafficPlan#follow}) reads, as each request leaves, the
 * chosen route the endpoint's last path table names toward its destination, and shifts the
 * request's address into the view that route reaches it by: under the kernel a request leaves
 * in model-time order with the tables the endpoint takes, so which requests move is a function of
 * the run.
 *
 * <p>Not thread-safe: one owner (the endpoint's actor), which forwards what the generator depends
 * on: the plan's start and next request coming due, requests leaving the link, read completions.
 */
final class TrafficGenerator {

  /** Requests kept queued on the link ahead of time, free-running. */
  static final int AHEAD = 16;

  /** What the generator needs of its endpoint. */
  interface Port {
    /** Whether the link can take another request now (up, queue short, a read tag free). */
    boolean canIssue(boolean reads);

    /** Issues a posted write stamped {@code at}; false if the link refused it. */
    boolean write(long address, int size, byte[] data, long at);

    /** Issues a read stamped {@code at}; false if the link refused it. */
    boolean read(long address, int size, long at);

    /** Reads of the plan still waiting for their completions. */
    int readsOutstanding();

    /** The chosen route to {@code destination} in the last path table the endpoint held whole; null: none. */
    io.rackfabric.fabric.management.Route chosenRoute(long destination);

    /** Under the model-time kernel: issue each request at its own model time. */
    boolean paced();

    /** The model time of the event being handled. */
    long now();

    /** The link's model clock: where a plan without a start time begins. */
    long linkNow();

    /** Calls {@link #due} back at model time {@code at}, as one of the endpoint's own events. */
    void wakeAt(long at);

    /** The plan is over: what it did. */
    void finished(MemoryEndpoint.TrafficDone done);
  }

  private final String id;
  private final Port port;
  private TrafficPlan plan;
  private long issued;
  private long done;
  private long failed;
  /** Requests issued to a shifted address, following the path table. */
  private long rerouted;
  private long startModel;
  private long startWall;
  /** The plan's first request has come due in model time. */
  private boolean started;
  /** Under the kernel, the model time of the next request's wake. */
  private long wakeAt = Long.MIN_VALUE;
  /** Issuing transmits synchronously and calls back into {@link #pump}: not again meanwhile. */
  private boolean pumping;

  TrafficGenerator(String id, Port port) {
    this.id = id;
    this.port = port;
  }

  /** Whether a plan is running (one at a time). */
  boolean running() {
    return plan != null;
  }

  boolean runningWrites() {
    return plan != null && !plan.reads();
  }

  /**
   * Takes {@code next} (no plan may be running): its first request is a model-time event of the
   * endpoint's own, in order with what the link brings.
   */
  void start(TrafficPlan next, long wallNanos) {
    plan = next;
    issued = done = failed = rerouted = 0;
    started = false;
    startModel = next.startAt() >= 0 ? next.startAt() : port.linkNow();
    startWall = wallNanos;
    wakeAt = startModel;
    port.wakeAt(startModel);
  }

  /** A wake asked for has come: the plan's first (or, under the kernel, next) request is due. */
  void due() {
    if (plan != null) {
      started = true;
      pump();
    }
  }

  /** One of the plan's reads completed. */
  void readCompleted(boolean successful) {
    if (plan != null) {
      done++;
      if (!successful) {
        failed++;
      }
      pump();
    }
  }

  /** Issues what is due while the link takes it (after a request left, a credit came back...). */
  void pump() {
    if (plan == null || !started || pumping) {
      return;
    }
    pumping = true;
    try {
      issue();
    } finally {
      pumping = false;
    }
  }

  private void issue() {
    boolean paced = port.paced();
    while (issued < plan.count() && port.canIssue(plan.reads())) {
      long at = startModel + issued * plan.intervalNs();
      if (paced && at > port.now()) {
        if (wakeAt != at) {
          wakeAt = at;
          port.wakeAt(at);
        }
        break;
      }
      long shift = plan.follow() == null ? 0 : plan.follow().shift(port.chosenRoute(plan.follow().destination()));
      if (shift != 0) {
        rerouted++;
      }
      long address = plan.addressOf(issued) + shift;
      boolean accepted;
      if (plan.reads()) {
        accepted = port.read(address, plan.size(), at);
      } else {
        byte[] data = plan.withData() ? TrafficPlan.payload(issued, plan.size()) : null;
        accepted = port.write(address, plan.size(), data, at);
        if (accepted) {
          done++;
        }
      }
      if (!accepted) {
        failed++;
      }
      issued++;
    }
    if (issued == plan.count() && (!plan.reads() || port.readsOutstanding() == 0)) {
      long end = Math.max(port.linkNow(), startModel + plan.count() * plan.intervalNs());
      MemoryEndpoint.TrafficDone result = new MemoryEndpoint.TrafficDone(id, done, failed, startModel, end,
          System.nanoTime() - startWall, rerouted);
      plan = null;
      started = false;
      port.finished(result);
    }
  }
}

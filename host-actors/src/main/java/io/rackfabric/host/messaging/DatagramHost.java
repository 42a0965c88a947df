package io.rackfabric.host.messaging;

import io.rackfabric.host.memory.Plane;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One host's datagram software: a {@link DatagramReceiver} for every other host's inbound queue
 * pair in its memory, a {@link DatagramSender} for every peer it sends to, and per peer the plane
 * through which it reaches that peer. It runs on a {@link HostFabric} and an {@link EventClock};
 * the {@code DatagramService} actor feeds it the root endpoint's events, tests feed it a
 * simulated rack.
 *
 * <p>Model time: a receiver looks at its PostQ when the doorbell write arrived plus the interrupt
 * latency (doorbell delivery) or when the PostQ tail write arrived plus the poll latency (polled
 * delivery); a sender sees an acknowledgement when it arrived plus the poll latency. Every other
 * write that lands only moves the clock to its arrival time. Each delivery carries the clock at
 * the moment the receiver delivered it.
 *
 * <p>Fail-over: {@link #usePlane} switches the address range through which a peer is reached;
 * the sender then resends everything unacknowledged through the new range and the receiver
 * re-acknowledges through it, since whatever was in flight on the old path may be gone. The
 * receiver never delivers a sequence number twice, so the resends cost nothing but bandwidth.
 */
public final class DatagramHost {

  /** Where delivered datagrams go: in order per sender, once each. */
  public interface Listener {
    void delivered(int from, long sequence, byte[] payload, long at);
  }

  private final MessagingLayout layout;
  private final MessagingSettings settings;
  private final EventClock clock;
  private final Listener listener;
  private final QueueLayout queues;
  private final ShadowMemory own;
  private final PeerPort[] ports;
  private final DatagramReceiver[] receivers;
  private final DatagramSender[] senders;
  private final long[] queued;
  private final long graceNanos;
  private boolean started;
  private boolean consuming = true;
  private long ignoredWrites;

  /**
   * @param maxPayload the fabric's Max_Payload_Size: writes are split into TLPs of at most this
   */
  public DatagramHost(MessagingLayout layout, MessagingSettings settings, int maxPayload,
      EventClock clock, HostFabric fabric, Listener listener) {
    this.layout = Objects.requireNonNull(layout, "layout");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.listener = Objects.requireNonNull(listener, "listener");
    Objects.requireNonNull(fabric, "fabric");
    this.queues = layout.queues();
    this.own = new ShadowMemory(fabric);
    int hosts = layout.hosts();
    this.ports = new PeerPort[hosts];
    this.receivers = new DatagramReceiver[hosts];
    this.senders = new DatagramSender[hosts];
    this.queued = new long[hosts];
    for (int p = 0; p < hosts; p++) {
      if (p != layout.self()) {
        ports[p] = new PeerPort(layout, p, fabric, clock, maxPayload, settings.completionTimeoutNs());
      }
    }
    this.graceNanos = settings.idleGrace().toNanos();
  }

  /**
   * Sets up an empty PostQ and a full FreeQ for every possible sender, in this host's memory
   * (stores, which the endpoint keeps for the senders' reads). Watch {@link
   * MessagingLayout#region()} on the root endpoint before calling it, so no write is missed.
   */
  public void start() {
    if (started) {
      throw new IllegalStateException("host " + layout.self() + " already started");
    }
    started = true;
    for (int s = 0; s < layout.hosts(); s++) {
      if (s == layout.self()) {
        continue;
      }
      int from = s;
      // No periodic poll: every doorbell (or tail) write that lands triggers a look.
      DatagramReceiver r = new DatagramReceiver(queues, s, own, ports[s],
          layout.ackAddress(layout.self()), clock, 0,
          (sequence, payload) -> listener.delivered(from, sequence, payload, clock.now()));
      r.setReturningBuffers(consuming);
      r.start();
      receivers[s] = r;
    }
  }

  /**
   * Queues a datagram for {@code peer}, issued at model time {@code at} (negative: now).
   * Returns its sequence number in the stream to that peer.
   *
   * @throws IllegalArgumentException for an unknown peer, this host, or a payload too large for
   *     a buffer, naming the value
   */
  public long send(int peer, byte[] payload, long at) {
    long sequence = accept(peer, payload);
    arrive(at);
    sender(peer).send(payload);
    return sequence;
  }

  /**
   * Queues a datagram for {@code peer} to be sent by a timer at model time {@code at}: a command
   * stamped ahead of this host's clock waits for its time, as the fabric's events do, instead of
   * moving the clock ahead of them. Returns its sequence number; an {@code at} already past is
   * sent now.
   *
   * @throws IllegalArgumentException as {@link #send} does, before anything is queued
   */
  public long sendAt(int peer, byte[] payload, long at) {
    long sequence = accept(peer, payload);
    clock.schedule(Math.max(0, at - clock.now()), () -> sender(peer).send(payload));
    return sequence;
  }

  private long accept(int peer, byte[] payload) {
    checkStarted();
    layout.checkPeer(peer);
    Objects.requireNonNull(payload, "payload");
    if (payload.length > queues.maxPayload()) {
      throw new IllegalArgumentException("payload of " + payload.length
          + " bytes exceeds a buffer's maximum payload of " + queues.maxPayload());
    }
    return queued[peer]++;
  }

  /** The model time of this host's next timer, {@code Long.MAX_VALUE} if none. */
  public long nextTimerAt() {
    return clock.nextDeadline();
  }

  /**
   * Runs every timer due by model time {@code at} and moves the clock there: a wake the host asked
   * for at its next timer.
   */
  public void wake(long at) {
    checkStarted();
    clock.advanceTo(at);
  }

  /**
   * Reaches {@code peer} through {@code plane} from model time {@code at} (negative: now) on.
   * On a change, resends everything unacknowledged to the peer through the new range and
   * re-acknowledges the peer's stream through it. Returns how many datagrams were resent.
   *
   * @throws IllegalArgumentException for an unknown peer, this host, or the MH through the
   *     secondary plane, naming the value
   */
  public int usePlane(int peer, Plane plane, long at) {
    checkPlane(peer, plane);
    arrive(at);
    return switchPlane(peer, plane);
  }

  /**
   * {@link #usePlane} by a timer at model time {@code at} (now if already past), as {@link
   * #sendAt} queues a datagram. Returns whether the switch changes the plane as things stand now.
   *
   * @throws IllegalArgumentException as {@link #usePlane} does, before anything is queued
   */
  public boolean usePlaneAt(int peer, Plane plane, long at) {
    checkPlane(peer, plane);
    clock.schedule(Math.max(0, at - clock.now()), () -> switchPlane(peer, plane));
    return ports[peer].plane() != plane;
  }

  private void checkPlane(int peer, Plane plane) {
    checkStarted();
    layout.checkPeer(peer);
    layout.reach(peer, 0, plane);
  }

  private int switchPlane(int peer, Plane plane) {
    if (!ports[peer].usePlane(plane)) {
      return 0;
    }
    int resent = 0;
    DatagramSender s = senders[peer];
    if (s != null) {
      long before = s.retransmissions();
      s.routeChanged();
      resent = (int) (s.retransmissions() - before);
    }
    receivers[peer].onDoorbell();
    return resent;
  }

  public Plane plane(int peer) {
    layout.checkPeer(peer);
    return ports[peer].plane();
  }

  /**
   * A posted write landed in this host's memory at model time {@code at}, as the root endpoint
   * reports it for the watched region.
   */
  public void onMemoryWritten(long address, byte[] data, long at) {
    checkStarted();
    if (data == null || !layout.region().containsAll(address, data.length)) {
      ignoredWrites++;
      clock.advanceTo(at);
      return;
    }
    own.landed(address, data);
    QueueLayout.Region region = queues.regionOf(address);
    QueueLayout.Region signal = settings.delivery() == MessagingSettings.Delivery.DOORBELL
        ? QueueLayout.Region.DOORBELL
        : QueueLayout.Region.POST_TAIL;
    if (region == signal) {
      DatagramReceiver r = receivers[queues.senderOf(address)];
      clock.advanceTo(at + settings.deliveryLatencyNs());
      if (r != null) {
        r.onDoorbell();
      }
      return;
    }
    int receiver = layout.ackOf(address);
    if (receiver >= 0) {
      clock.advanceTo(at + settings.pollLatencyNs());
      if (senders[receiver] != null) {
        senders[receiver].onAckWritten();
      }
      return;
    }
    clock.advanceTo(at);
  }

  /**
   * Whether delivered datagrams' buffers go back to the FreeQs at once. Off while nobody takes
   * deliveries: senders then stop after {@code buffers} datagrams each instead of datagrams piling
   * up here; on again returns every held buffer.
   */
  public void setConsuming(boolean on) {
    consuming = on;
    for (DatagramReceiver r : receivers) {
      if (r != null) {
        r.setReturningBuffers(on);
      }
    }
  }

  /** The idle rule of {@link EventClock}; call it periodically. Returns how many timers ran. */
  public int idle() {
    long before = issued();
    return clock.runIdle(graceNanos, () -> issued() != before);
  }

  public long now() {
    return clock.now();
  }

  public int self() {
    return layout.self();
  }

  public MessagingLayout layout() {
    return layout;
  }

  public DatagramStats stats() {
    List<DatagramStats.PeerStats> peers = new ArrayList<>();
    for (int p = 0; p < layout.hosts(); p++) {
      if (p == layout.self()) {
        continue;
      }
      PeerPort port = ports[p];
      DatagramSender s = senders[p];
      DatagramReceiver r = receivers[p];
      peers.add(new DatagramStats.PeerStats(p, port.plane(), port.planeChanges(), queued[p],
          s == null ? 0 : s.transmissions(), s == null ? 0 : s.retransmissions(),
          s == null ? 0 : s.timeouts(), s == null ? 0 : s.acknowledged(),
          s == null ? 0 : s.outstanding(), s == null ? 0 : s.pending(),
          s == null ? 0 : s.buffersInHand(),
          port.readsIssued(), port.readsFailed(), port.readTimeouts(), port.tlps(),
          r == null ? 0 : r.delivered(), r == null ? 0 : r.corruptDatagrams(),
          r == null ? 0 : r.acksWritten()));
    }
    return new DatagramStats(layout.self(), clock.now(), settings.delivery().name(),
        clock.idleRuns(), ignoredWrites, peers);
  }

  private DatagramSender sender(int peer) {
    if (senders[peer] == null) {
      senders[peer] = new DatagramSender(queues, layout.self(), ports[peer], own,
          layout.ackAddress(peer), clock, settings.senderTiming());
    }
    return senders[peer];
  }

  /** A command arrived: at its model time if it has one, else it is just activity. */
  private void arrive(long at) {
    if (at >= 0) {
      clock.advanceTo(at);
    } else {
      clock.touch();
    }
  }

  private long issued() {
    long n = 0;
    for (PeerPort p : ports) {
      if (p != null) {
        n += p.issued();
      }
    }
    return n;
  }

  private void checkStarted() {
    if (!started) {
      throw new IllegalStateException("host " + layout.self() + " not started");
    }
  }
}

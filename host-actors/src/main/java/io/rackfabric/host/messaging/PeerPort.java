package io.rackfabric.host.messaging;

import io.rackfabric.host.memory.Plane;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One host's path to one peer, as the protocol's {@link MemoryPort}: the peer's local addresses
 * turned into global ones through the plane currently used for that peer, writes split as a root
 * complex splits them (at Max_Payload_Size, never across a 4 KiB boundary), and reads given the
 * completion timeout that the fabric itself does not apply.
 */
final class PeerPort implements MemoryPort {

  private static final int PAGE = 4096;

  private final MessagingLayout layout;
  private final int peer;
  private final HostFabric fabric;
  private final EventClock clock;
  private final int maxPayload;
  private final long completionTimeoutNs;
  /** Outstanding reads by token: a token is answered once, by completion, failure or timeout. */
  private final Map<Long, ReadCallback> reads = new LinkedHashMap<>();
  private Plane plane = Plane.PRIMARY;
  private long nextToken;

  private long writes;
  private long tlps;
  private long readsIssued;
  private long readsFailed;
  private long readTimeouts;
  private long planeChanges;

  PeerPort(MessagingLayout layout, int peer, HostFabric fabric, EventClock clock, int maxPayload,
      long completionTimeoutNs) {
    this.layout = Objects.requireNonNull(layout, "layout");
    layout.checkPeer(peer);
    if (maxPayload < 1) {
      throw new IllegalArgumentException("maxPayload=" + maxPayload + " must be positive");
    }
    if (completionTimeoutNs <= 0) {
      throw new IllegalArgumentException("completionTimeoutNs=" + completionTimeoutNs
          + " must be positive");
    }
    this.peer = peer;
    this.fabric = Objects.requireNonNull(fabric, "fabric");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.maxPayload = maxPayload;
    this.completionTimeoutNs = completionTimeoutNs;
  }

  @Override
  public void write(long address, byte[] data) {
    long global = layout.reach(peer, address, plane);
    long at = clock.now();
    int done = 0;
    while (done < data.length) {
      long a = global + done;
      int n = Math.min(Math.min(maxPayload, data.length - done), PAGE - (int) (a & (PAGE - 1)));
      fabric.write(a, Arrays.copyOfRange(data, done, done + n), at);
      tlps++;
      done += n;
    }
    writes++;
    clock.touch();
  }

  @Override
  public void read(long address, int length, ReadCallback callback) {
    long global = layout.reach(peer, address, plane);
    long token = nextToken++;
    reads.put(token, callback);
    readsIssued++;
    fabric.read(global, length, clock.now(), new HostFabric.ReadDone() {
      @Override
      public void completed(byte[] data, long at) {
        clock.advanceTo(at);
        ReadCallback c = reads.remove(token);
        if (c != null) {
          c.completed(data);
        }
      }

      @Override
      public void failed(String reason, long at) {
        clock.advanceTo(at);
        ReadCallback c = reads.remove(token);
        if (c != null) {
          readsFailed++;
          c.failed(reason);
        }
      }
    });
    clock.schedule(completionTimeoutNs, () -> {
      ReadCallback c = reads.remove(token);
      if (c != null) {
        readTimeouts++;
        c.failed("completion timeout after " + completionTimeoutNs + " ns");
      }
    });
    clock.touch();
  }

  /**
   * Reaches the peer through {@code next} from now on. Reads in flight on the old path are failed
   * at once (their completions may never come); a late one is ignored. Returns whether it changed.
   */
  boolean usePlane(Plane next) {
    Objects.requireNonNull(next, "plane");
    if (next == plane) {
      return false;
    }
    layout.reach(peer, 0, next); // refuses the MH's secondary plane before anything changes
    plane = next;
    planeChanges++;
    List<ReadCallback> abandoned = new ArrayList<>(reads.values());
    reads.clear();
    for (ReadCallback c : abandoned) {
      readsFailed++;
      c.failed("route to host " + peer + " changed to the " + next.ntb() + " plane");
    }
    return true;
  }

  Plane plane() {
    return plane;
  }

  int peer() {
    return peer;
  }

  /** Operations issued (writes and reads): what the idle rule counts as progress. */
  long issued() {
    return writes + readsIssued;
  }

  long writes() {
    return writes;
  }

  long tlps() {
    return tlps;
  }

  long readsIssued() {
    return readsIssued;
  }

  long readsFailed() {
    return readsFailed;
  }

  long readTimeouts() {
    return readTimeouts;
  }

  long planeChanges() {
    return planeChanges;
  }
}

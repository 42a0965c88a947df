package io.rackfabric.host.messaging;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.MemorySizes;
import io.rackfabric.host.memory.Plane;
import java.util.Objects;

/**
 * Where the datagram service of host {@code self} (0 = the MH, i = CH i) keeps its structures in
 * its own local memory, and how it reaches the same structures of a peer through the global
 * memory space. Every host uses the same region offset, so one host's local addresses are the
 * offsets at which its peers find their own structures.
 *
 * <pre>
 * regionOffset        inbound queues: a {@link QueueLayout} with one sender slot per host
 *                     (index = host number), so the MH and every CH can send to this host
 * ackBase()           acknowledgement words: 64 bytes per peer; the receiver on host r writes
 *                     its cumulative count for sender s's stream at ackAddress(r) in s's memory
 * </pre>
 *
 * <p>The protocol state machines work in the receiver's local addresses (FreeQ entries carry
 * them); only {@link #reach} turns an address into the global one, through a plane, so switching
 * a peer's plane changes nothing else.
 */
public record MessagingLayout(GlobalMemoryLayout memory, int self, long regionOffset, int buffers) {

  static final int ACK_STRIDE = 64;
  private static final long PAGE = 4096;

  public MessagingLayout {
    Objects.requireNonNull(memory, "memory");
    if (self < 0 || self > memory.computeHosts()) {
      throw new IllegalArgumentException("host=" + self + " not in [0," + memory.computeHosts()
          + "] (0 is the MH)");
    }
    QueueLayout queues = QueueLayout.of(regionOffset, memory.computeHosts() + 1, buffers);
    long end = regionEnd(queues, memory.computeHosts() + 1);
    if (Long.compareUnsigned(end, memory.localSubspace()) > 0) {
      throw new IllegalArgumentException("region-offset=" + MemorySizes.hex(regionOffset)
          + " with " + buffers + " buffers for " + (memory.computeHosts() + 1)
          + " hosts ends at " + MemorySizes.hex(end) + ", beyond the local subspace of "
          + MemorySizes.size(memory.localSubspace()));
    }
  }

  /** The layout for host {@code self} with the settings' region offset and buffer count. */
  public static MessagingLayout of(GlobalMemoryLayout memory, int self, MessagingSettings settings) {
    return new MessagingLayout(memory, self, settings.regionOffset(), settings.buffers());
  }

  private static long regionEnd(QueueLayout queues, int hosts) {
    return ackBase(queues) + (long) hosts * ACK_STRIDE;
  }

  private static long ackBase(QueueLayout queues) {
    long end = queues.base() + queues.size();
    return (end + PAGE - 1) / PAGE * PAGE;
  }

  /** Hosts that may exchange datagrams: the MH and the compute hosts. */
  public int hosts() {
    return memory.computeHosts() + 1;
  }

  /** The inbound queues, in local addresses (the same offsets in every host's memory). */
  public QueueLayout queues() {
    return QueueLayout.of(regionOffset, hosts(), buffers);
  }

  public long ackBase() {
    return ackBase(queues());
  }

  /**
   * The ack word for the stream to {@code receiver}, as a local address of the sending host: the
   * receiver writes it in the sender's memory, the sender reads it in its own.
   */
  public long ackAddress(int receiver) {
    checkHost("receiver", receiver);
    return ackBase() + (long) receiver * ACK_STRIDE;
  }

  /** The receiver whose ack word {@code local} is, or -1 if it is not one. */
  public int ackOf(long local) {
    long base = ackBase();
    if (local < base || local >= base + (long) hosts() * ACK_STRIDE || (local - base) % 8 != 0) {
      return -1;
    }
    return (int) ((local - base) / ACK_STRIDE);
  }

  /** Everything a host's peers write into its memory: watch this. */
  public AddressRange region() {
    return AddressRange.ofSize(regionOffset, regionEnd(queues(), hosts()) - regionOffset);
  }

  /**
   * The address at which this host reaches byte {@code local} of {@code peer}'s memory through
   * {@code plane}: the global memory layout's two NTB hops from a CH, one from the MH.
   *
   * @throws IllegalArgumentException for this host itself, an unknown peer, or the MH's memory
   *     through the secondary plane (it is mapped in PMS1 only)
   */
  public long reach(int peer, long local, Plane plane) {
    checkPeer(peer);
    Objects.requireNonNull(plane, "plane");
    if (peer == 0 && plane != Plane.PRIMARY) {
      throw new IllegalArgumentException("peer=0 (the MH) is mapped in PMS1 only; it has no "
          + plane.ntb() + " range");
    }
    return self == 0
        ? memory.mhAddress(peer, local, plane)
        : memory.chAddress(self, peer, local, plane);
  }

  /** Throws naming the value unless {@code peer} is another host of this rack. */
  public void checkPeer(int peer) {
    checkHost("peer", peer);
    if (peer == self) {
      throw new IllegalArgumentException("peer=" + peer + " is this host itself");
    }
  }

  private void checkHost(String what, int host) {
    if (host < 0 || host >= hosts()) {
      throw new IllegalArgumentException(what + "=" + host + " not in [0," + (hosts() - 1)
          + "] (0 is the MH)");
    }
  }
}

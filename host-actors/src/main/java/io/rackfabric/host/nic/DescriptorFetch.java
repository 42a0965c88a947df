package io.rackfabric.host.nic;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The transmit path of {@link NicFirmware}: one descriptor at a time, VFs round robin. A
 * descriptor is two DMA reads (the descriptor, then the frame's buffer); then the frame goes to the
 * MAC and the head is written back to the host. The firmware's loop decides when a step runs; this
 * class does the step at the model time {@code now} the loop gives it and returns the clock after
 * it.
 */
final class DescriptorFetch {

  private enum Phase { DESCRIPTOR, BUFFER }

  /** The descriptor in flight: which read it waits for, and when that read was issued. */
  private record Job(int vf, int generation, Phase phase, long address, int length, long issuedAt) {}

  private final NicSettings settings;
  private final NicFirmware.Hardware hardware;
  private final EthernetLink wire;
  private final TxQueue[] queues;
  private Job job;
  private int nextVf;
  private long strayDma;

  DescriptorFetch(NicSettings settings, NicFirmware.Hardware hardware, TxQueue[] queues) {
    this.settings = settings;
    this.hardware = hardware;
    this.wire = new EthernetLink(settings.linkRateBitsPerSecond(), settings.propagationNs());
    this.queues = queues;
  }

  /** Whether a DMA read is out for a descriptor. */
  boolean busy() {
    return job != null;
  }

  /**
   * The model time a DMA result is due: its read's issue time plus its latency when it is the one
   * the descriptor in flight waits for; else (a stray) {@code now}.
   */
  long dueAt(long address, long latencyNs, long now) {
    return job != null && address == job.address() ? job.issuedAt() + latencyNs : now;
  }

  /** Starts the next descriptor at {@code now} when the DMA engine is idle; false when there is nothing to do. */
  boolean start(long now) {
    if (job != null) {
      return false;
    }
    for (int i = 0; i < queues.length; i++) {
      TxQueue q = queues[(nextVf + i) % queues.length];
      if (q.enabled && q.pending() > 0) {
        nextVf = (q.vf + 1) % queues.length;
        long address = q.ringBase() + (long) q.head * settings.descriptorSize();
        job = new Job(q.vf, q.generation, Phase.DESCRIPTOR, address, settings.descriptorSize(), now);
        hardware.dmaRead(address, settings.descriptorSize(), now);
        return true;
      }
    }
    return false;
  }

  /** A DMA read finished, handled at {@code now}: returns the firmware's clock after the step. */
  long completed(long address, boolean ok, byte[] data, long latencyNs, long now) {
    if (job == null || address != job.address()) {
      strayDma++;
      return now;
    }
    Job done = job;
    now = Math.max(now, done.issuedAt() + latencyNs);
    TxQueue q = queues[done.vf()];
    if (done.generation() != q.generation) {
      job = null; // the ring restarted while the read was out: nothing to finish
      strayDma++;
      return now;
    }
    if (!ok || data == null || data.length < done.length()) {
      q.dmaErrors++;
      finish(q, now);
      return now;
    }
    if (done.phase() == Phase.DESCRIPTOR) {
      now += settings.descriptorProcessingNs();
      ByteBuffer desc = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
      long buffer = desc.getLong(RegisterMap.DESC_ADDRESS);
      int length = desc.getShort(RegisterMap.DESC_LENGTH) & 0xFFFF;
      int command = desc.getShort(RegisterMap.DESC_COMMAND) & 0xFFFF;
      if (length < 1 || length > settings.maxFrame() || (command & RegisterMap.CMD_EOP) == 0) {
        q.badDescriptors++;
        finish(q, now);
        return now;
      }
      job = new Job(done.vf(), done.generation(), Phase.BUFFER, buffer, length, now);
      hardware.dmaRead(buffer, length, now);
      return now;
    }
    byte[] frame = data.length == done.length() ? data : Arrays.copyOf(data, done.length());
    EthernetLink.Transmission tx = wire.transmit(frame.length, now + settings.txLatencyNs());
    q.frames++;
    q.bytes += frame.length;
    hardware.transmit(q.vf, frame, tx);
    finish(q, now);
    return now;
  }

  /**
   * The head moves past the descriptor, and the host learns it through the write-back. This is
   * the commit point of a send: the write-back goes out in the same loop cycle as the frame it
   * reports, after the frame is on the wire, and a hang stops the loop only between cycles. A
   * posted write once issued is in the fabric and lands even if the card is reset behind it, so
   * the host's last head write-back counts exactly the frames that reached the wire: recovery
   * resends from there and nothing twice.
   */
  private void finish(TxQueue q, long now) {
    job = null;
    q.head = (q.head + 1) % q.length;
    long writeBack = q.writeBack();
    if (writeBack != 0) {
      hardware.dmaWrite(writeBack, RegisterMap.dwords(q.head), now);
    }
  }

  /** A DMA result nobody waits for (the card was reset behind it). */
  void stray() {
    strayDma++;
  }

  /** Card reset: the descriptor in flight is forgotten. */
  void clear() {
    job = null;
  }

  long strayDma() {
    return strayDma;
  }

  EthernetLink wire() {
    return wire;
  }
}

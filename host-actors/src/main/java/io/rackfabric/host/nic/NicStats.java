package io.rackfabric.host.nic;

import io.rackfabric.fabric.wire.WireMessage;
import java.util.List;

/**
 * A NIC's state and counters, at model time {@code modelNow} of its firmware.
 *
 * @param cycles firmware loop dispatch cycles so far (a watchdog watches this move)
 * @param lastCycleAt model time of the last dispatch cycle
 * @param frames frames put on the wire
 * @param wireBusyUntil model time the Ethernet transmitter is busy until
 * @param foreignPfWrites PF register writes from a requester other than the PF's owner, ignored
 * @param malformedWrites register writes that were not whole aligned dwords in one BAR, ignored
 * @param otherRegisterWrites writes to registers this model does not implement, ignored
 * @param strayDma DMA results that matched nothing in flight (or a ring restarted meanwhile)
 * @param unconnected frames sent while no receiver was connected to the wire (lost)
 * @param queuedEvents register writes and DMA results waiting for the firmware loop
 * @param dmaOutstanding the firmware's job waits for a DMA read's result (it issues one at a time)
 * @param heldForOrder register writes the card holds until a slower declared stream has rung
 *     (the streams are served in model-time order), not yet handed to the firmware
 */
public record NicStats(
    String nic,
    long modelNow,
    long cycles,
    long lastCycleAt,
    long frames,
    long wireBytes,
    long wireBusyUntil,
    long foreignPfWrites,
    long malformedWrites,
    long otherRegisterWrites,
    long strayDma,
    long unconnected,
    int queuedEvents,
    boolean dmaOutstanding,
    int heldForOrder,
    List<VfStats> vfs) implements WireMessage {

  public NicStats {
    vfs = List.copyOf(vfs);
  }

  public VfStats vf(int vf) {
    return vfs.get(vf);
  }

  /** The same reading with {@code held} register writes held by the card for model-time order. */
  public NicStats withHeldForOrder(int held) {
    return new NicStats(nic, modelNow, cycles, lastCycleAt, frames, wireBytes, wireBusyUntil, foreignPfWrites,
        malformedWrites, otherRegisterWrites, strayDma, unconnected, queuedEvents, dmaOutstanding, held, vfs);
  }

  /** Why a stream through VF {@code vf} may be stuck, in one line: what the card holds and waits for. */
  public String describeVf(int vf) {
    VfStats v = vf >= 0 && vf < vfs.size() ? vfs.get(vf) : null;
    String card = "nic at " + modelNow + " ns: " + queuedEvents + " event(s) queued, "
        + (dmaOutstanding ? "a DMA read outstanding" : "no DMA outstanding") + ", " + heldForOrder
        + " write(s) held for model-time order";
    if (v == null) {
      return card + "; no VF " + vf;
    }
    return card + "; VF " + vf + (v.enabled() ? "" : " disabled") + ": head " + v.head() + ", tail " + v.tail()
        + ", " + v.doorbells() + " doorbell(s), " + v.frames() + " frame(s), " + v.foreignDoorbells()
        + " foreign doorbell(s), " + v.disabledWrites() + " write(s) while disabled, " + v.dmaErrors()
        + " DMA error(s)";
  }

  /**
   * One VF.
   *
   * @param owner0 VF_OWNER0 as written (see {@link RequesterMatch#decode})
   * @param assignedAt model time the VF was last enabled, -1 if never
   * @param ringBase transmit ring base (NIC's domain)
   * @param doorbells tail doorbells accepted
   * @param foreignDoorbells tail doorbells from a requester the VF is not assigned to, ignored
   * @param foreignWrites other VF register writes from such a requester, ignored
   * @param disabledWrites VF register writes while the VF was disabled, ignored
   * @param badDoorbells tail values outside the ring (or no ring), ignored
   * @param badRings TDLEN values outside [1, max-ring]: the ring is off until a valid one
   * @param badDescriptors descriptors skipped: length outside [1, max-frame] or no EOP
   * @param dmaErrors descriptor or buffer reads that failed: the descriptor is skipped
   */
  public record VfStats(
      int vf,
      boolean enabled,
      int owner0,
      int owner1,
      long assignedAt,
      long ringBase,
      int ringLength,
      int head,
      int tail,
      long writeBack,
      long doorbells,
      long frames,
      long bytes,
      long foreignDoorbells,
      long foreignWrites,
      long disabledWrites,
      long badDoorbells,
      long badRings,
      long badDescriptors,
      long dmaErrors) implements WireMessage {}
}

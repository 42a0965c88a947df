package io.rackfabric.cluster.lending;

import io.rackfabric.cluster.lending.VmPassThrough.GuestMapping;
import java.util.Optional;

/**
 * One device passed through to a VM, over its life (Device Lending, section 5): the hypervisor
 * attaches it to the VM without borrowing it; it is borrowed, and the guest's memory pinned and
 * mapped in the lender's IOMMU, only when the guest first sets Bus Master Enable in the device's
 * command register (until then the guest's memory may not exist yet, and the device is free for
 * others); it is returned when the guest shuts down or hot-removes it. Plain state, no actor.
 */
public final class PassThroughDevice {

  /** Bus Master Enable: bit 2 of a PCI function's command register. */
  public static final int BUS_MASTER_ENABLE = 1 << 2;

  /** Where the device is in its life. */
  public enum State {
    /** Passed through to the VM, not borrowed. */
    ATTACHED,
    /** Borrowed for the VM, its memory mapped. */
    BORROWED,
    /** Given back: the guest shut down or hot-removed it. */
    RETURNED
  }

  private final GuestMapping mapping;
  private State state = State.ATTACHED;

  public PassThroughDevice(GuestMapping mapping) {
    this.mapping = mapping;
  }

  public State state() {
    return state;
  }

  /**
   * The guest wrote {@code command} into the device's command register.
   *
   * @return the mapping to install in the lender's IOMMU when this write borrows the device (the
   *     first with Bus Master Enable set), empty otherwise
   * @throws IllegalStateException naming the device and the VM when it was already returned
   */
  public Optional<GuestMapping> commandWritten(int command) {
    if (state == State.RETURNED) {
      throw new IllegalStateException("device=" + mapping.device() + " was returned by vm=" + mapping.vm().name()
          + ": attach it again before the guest enables it");
    }
    if (state == State.ATTACHED && (command & BUS_MASTER_ENABLE) != 0) {
      state = State.BORROWED;
      return Optional.of(mapping);
    }
    return Optional.empty();
  }

  /**
   * The guest shut down or hot-removed the device.
   *
   * @return whether a loan ends here (false when the guest never enabled it, or it was returned)
   */
  public boolean released() {
    boolean wasBorrowed = state == State.BORROWED;
    state = State.RETURNED;
    return wasBorrowed;
  }
}

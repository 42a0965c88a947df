package io.rackfabric.host.vm;

/**
 * One device passed through to a VM, over its life (Device Lending, section 5): the hypervisor
 * attaches it to the VM without borrowing it; it is borrowed, and the guest's memory pinned and
 * mapped in the lender's IOMMU, only when the guest first sets Bus Master Enable in the device's
 * command register (until then the guest's memory may not exist yet, and the device is free for
 * others); it is returned when the guest shuts down or hot-removes it. The enable waits for the
 * controller's answer to the borrow: refused, the device stays attached and not enabled (the
 * guest reads Bus Master Enable back as 0) and a later enable asks again. Plain state, no actor.
 */
public final class PassThroughDevice {

  /** Bus Master Enable: bit 2 of a PCI function's command register. */
  public static final int BUS_MASTER_ENABLE = 1 << 2;

  /** Where the device is in its life. */
  public enum State {
    /** Passed through to the VM, not borrowed (never enabled, or its borrow was refused). */
    ATTACHED,
    /** The guest set Bus Master Enable; the borrow is asked and its answer not come yet. */
    ENABLING,
    /** Borrowed for the VM, its memory mapped; Bus Master Enable reads back set. */
    BORROWED,
    /** Given back: the guest shut down or hot-removed it. */
    RETURNED
  }

  private final String device;
  private final String vm;
  private State state = State.ATTACHED;

  public PassThroughDevice(String device, String vm) {
    this.device = device;
    this.vm = vm;
  }

  public State state() {
    return state;
  }

  /**
   * The guest wrote {@code command} into the device's command register.
   *
   * @return whether this write asks for the borrow (the first with Bus Master Enable set while the
   *     device is not borrowed nor being borrowed)
   * @throws IllegalStateException naming the device and the VM when it was already returned
   */
  public boolean commandWritten(int command) {
    if (state == State.RETURNED) {
      throw new IllegalStateException("device=" + device + " was returned by vm=" + vm
          + ": attach it again before the guest enables it");
    }
    if (state == State.ATTACHED && (command & BUS_MASTER_ENABLE) != 0) {
      state = State.ENABLING;
      return true;
    }
    return false;
  }

  /** The controller answered the borrow: borrowed when accepted, attached again (not enabled) when not. */
  public void borrowAnswered(boolean accepted) {
    if (state == State.ENABLING) {
      state = accepted ? State.BORROWED : State.ATTACHED;
    }
  }

  /** What the guest reads back of {@code written}: Bus Master Enable only while the device is borrowed for it. */
  public int readBack(int written) {
    return state == State.BORROWED || state == State.ENABLING ? written : written & ~BUS_MASTER_ENABLE;
  }

  /**
   * The guest shut down or hot-removed the device.
   *
   * @return whether a loan may end here: borrowed, or its borrow still unanswered (false when the
   *     guest never enabled it, its borrow was refused, or it was returned)
   */
  public boolean released() {
    boolean loan = state == State.BORROWED || state == State.ENABLING;
    state = State.RETURNED;
    return loan;
  }
}

package io.rackfabric.host.nic;

/**
 * A fault injected into the firmware, as FTGM's campaign injects them: armed at a {@link
 * FaultPoint}, it takes effect the first time the loop executes that point. A fault that corrupts
 * a packet or hangs the remote card rides on the next data packet sent. It also records when a
 * fault first showed, the time the campaign measures detection and recovery from.
 */
final class InjectedFault {

  private record Armed(FaultCategory category, FaultPoint point) {}

  private Armed armed;
  /** A fault waiting for the next data packet to go out. */
  private FaultCategory onNextPacket;
  private FaultCategory activated;
  private long activatedAt = -1;

  void arm(FaultCategory category, FaultPoint point) {
    armed = new Armed(category, point);
  }

  /** Card reset: a fault not yet executed is gone with the firmware. */
  void disarm() {
    armed = null;
    onNextPacket = null;
  }

  /**
   * The loop executes {@code point} at {@code now}: the category of the fault armed there, which
   * has then taken effect, or null when none is.
   */
  FaultCategory fire(FaultPoint point, long now) {
    if (armed == null || armed.point() != point) {
      return null;
    }
    FaultCategory c = armed.category();
    armed = null;
    activated = c;
    activatedAt = now;
    if (c == FaultCategory.MESSAGES_CORRUPTED || c == FaultCategory.REMOTE_INTERFACE_HANG) {
      onNextPacket = c;
    }
    return c;
  }

  /** The data packet as it goes onto the wire: a fault waiting for a packet spoils this one. */
  McpPacket onWire(McpPacket packet) {
    if (onNextPacket == FaultCategory.MESSAGES_CORRUPTED) {
      onNextPacket = null;
      return packet.corrupt();
    }
    if (onNextPacket == FaultCategory.REMOTE_INTERFACE_HANG) {
      onNextPacket = null;
      return packet.poisoned();
    }
    return packet;
  }

  /** The card hung at {@code now}: the time counts as the fault's when no armed fault took effect. */
  void hung(long now) {
    if (activatedAt < 0 || activated == null) {
      activatedAt = now;
    }
  }

  boolean pending() {
    return armed != null;
  }

  /** When the armed fault took effect (or a poisoned packet hung the card), -1 if none did. */
  long activatedAt() {
    return activatedAt;
  }
}

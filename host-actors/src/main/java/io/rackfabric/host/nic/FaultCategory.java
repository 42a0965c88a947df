package io.rackfabric.host.nic;

import io.rackfabric.fabric.wire.WireMessage;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a fault in the firmware's send code does once it is executed: the failure categories of
 * FTGM Table 1 that concern the interface (host crashes and "other errors" are not modeled).
 */
public enum FaultCategory implements WireMessage {
  /** The loop stops: no event is handled, L_timer is no longer called. */
  INTERFACE_HANG,
  /** The packet being sent goes out with a bad CRC: the receiver drops it, Go-Back-N resends. */
  MESSAGES_CORRUPTED,
  /** The packet being sent makes the remote interface hang when it handles it. */
  REMOTE_INTERFACE_HANG,
  /** The firmware restarts itself: its state is gone, it tells the host with an interrupt. */
  MCP_RESTART,
  /** The flipped bit is never harmful. */
  NO_IMPACT;

  /** The configuration spelling: {@code interface-hang}. */
  public String key() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Reads {@link #key()} (or the enum name); the error names the value and the choices. */
  public static FaultCategory parse(String text) {
    for (FaultCategory c : values()) {
      if (c.key().equalsIgnoreCase(text) || c.name().equalsIgnoreCase(text)) {
        return c;
      }
    }
    throw new IllegalArgumentException("category=" + text + " not in {"
        + Arrays.stream(values()).map(FaultCategory::key).collect(Collectors.joining(",")) + "}");
  }
}

package io.rackfabric.host.ftgm;

import io.rackfabric.fabric.wire.WireMessage;
import java.util.Comparator;

/**
 * One step of a fault's detection and recovery as it happened in a testbed, at the model time the
 * run's events carried: the fault taking effect in the firmware, the card's interrupt, the
 * daemon's steps (woken, the magic-word check, reset, reload, tables, FAULT_DETECTED posted to a
 * port) and each port's handler having reopened its port. A run's record lists them so that a
 * recovery can be read back step by step.
 *
 * @param nic the card the step concerns
 * @param step what happened (one of the constants below)
 * @param port the port it concerns, or -1
 * @param detail more about it ("watchdog", "restarted", "hung", ...), or empty
 */
public record RecoveryEvent(long at, String nic, String step, int port, String detail) implements WireMessage {

  public static final String FAULT_ACTIVATED = "fault-activated";
  public static final String INTERRUPT = "interrupt";
  public static final String DAEMON_WOKEN = "daemon-woken";
  public static final String HANG_CONFIRMED = "hang-confirmed";
  public static final String FALSE_ALARM = "false-alarm";
  public static final String CARD_RESET = "card-reset";
  public static final String FIRMWARE_RELOADED = "firmware-reloaded";
  public static final String TABLES_RESTORED = "tables-restored";
  public static final String FAULT_DETECTED_POSTED = "fault-detected-posted";
  public static final String PORT_REOPENED = "port-reopened";

  /** Model time order; equal times keep the order they were recorded in (a stable sort). */
  public static final Comparator<RecoveryEvent> BY_TIME = Comparator.comparingLong(RecoveryEvent::at);

  public RecoveryEvent {
    detail = detail == null ? "" : detail;
  }
}

package io.rackfabric.host.nic;

/** What the firmware (or the fault-tolerance daemon) puts into a port's receive queue in host memory. */
public sealed interface PortEvent {

  /** A send finished: its token comes back and the callback runs. */
  record SendCompleted(SendToken token) implements PortEvent {}

  /** A message reached {@code token}'s buffer; {@code seq} is the stream number just acknowledged. */
  record MessageReceived(ReceiveToken token, StreamKey stream, long seq, long payload, int length)
      implements PortEvent {}

  /** The card failed and was reloaded (FTGM section 4.3); the port's handler takes over. */
  record FaultDetected() implements PortEvent {}
}

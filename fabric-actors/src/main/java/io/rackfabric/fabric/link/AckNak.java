package io.rackfabric.fabric.link;

/**
 * Ack or Nak DLLP: the receiver has every TLP up to {@code seq}; a Nak asks for the rest again.
 */
public record AckNak(boolean nak, long seq, long sentAt) implements LinkFrame {}

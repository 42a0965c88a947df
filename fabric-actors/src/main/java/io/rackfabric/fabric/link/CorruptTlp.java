package io.rackfabric.fabric.link;

/**
 * A TLP that arrives with a bad LCRC: the receiver can trust nothing in it, so it carries only
 * its size on the wire (for its arrival time). The receiver discards it and sends a Nak.
 */
public record CorruptTlp(int wireBytes, long sentAt) implements LinkFrame {}

package io.rackfabric.fabric.link;

import io.rackfabric.fabric.tlp.Tlp;

/** A TLP on the wire; it arrives at {@code sentAt} plus the link's flight time for its size. */
public record TlpFrame(Tlp tlp, long sentAt) implements LinkFrame {}

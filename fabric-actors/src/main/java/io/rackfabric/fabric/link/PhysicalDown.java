package io.rackfabric.fabric.link;

/** The far end lost the physical link (surprise down); the receiving end goes down at once. */
public record PhysicalDown(long sentAt) implements LinkFrame {}

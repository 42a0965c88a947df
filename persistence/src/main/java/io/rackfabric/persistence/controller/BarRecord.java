package io.rackfabric.persistence.controller;

/** One BAR as enumeration sized and assigned it: index, assigned base address, size in bytes. */
public record BarRecord(int index, long base, long size, boolean prefetchable) {}

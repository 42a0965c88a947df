package io.rackfabric.persistence.controller;

/** The PF driver state of one NIC: whether it is up and how many VFs it enabled. */
public record NicDriverRecord(String nic, PfDriverState state, int vfsEnabled) {}

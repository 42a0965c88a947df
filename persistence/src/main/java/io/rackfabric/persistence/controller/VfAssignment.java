package io.rackfabric.persistence.controller;

/** VF {@code vf} of {@code nic} is lent to {@code host}. */
public record VfAssignment(String nic, int vf, String host) {}

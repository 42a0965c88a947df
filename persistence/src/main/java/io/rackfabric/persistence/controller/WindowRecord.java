package io.rackfabric.persistence.controller;

/**
 * One NTB translation register: requests to [base, base + size) behind BAR {@code bar} of NTB
 * {@code ntb} leave translated to [translatedBase, translatedBase + size).
 */
public record WindowRecord(String ntb, int bar, long base, long size, long translatedBase) {}

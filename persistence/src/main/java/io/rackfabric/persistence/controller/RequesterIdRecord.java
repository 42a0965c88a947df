package io.rackfabric.persistence.controller;

/** One entry of an NTB's requester-ID table: {@code original} crosses as proxy number {@code index}. */
public record RequesterIdRecord(String ntb, RequesterIdDirection direction, int index, int original) {}

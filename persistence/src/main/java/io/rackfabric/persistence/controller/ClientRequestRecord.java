package io.rackfabric.persistence.controller;

/** The last request of {@code client} the controller applied (requests are numbered from 1). */
public record ClientRequestRecord(String client, long lastRequest) {}

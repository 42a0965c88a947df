package io.rackfabric.persistence.controller;

/** One 4 KiB page of {@code host}'s memory open to {@code requester}. */
public record IommuEntry(String host, int requester, long pageAddress, PagePermission permission) {}

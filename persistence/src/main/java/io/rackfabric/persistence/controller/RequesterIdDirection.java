package io.rackfabric.persistence.controller;

/**
 * Which of an NTB's two requester-ID tables an entry is in (mirrors fabric-actors' NtbDirection;
 * kept here so the journal's enum names are the controller's own and cannot change under it).
 */
public enum RequesterIdDirection {
  TO_VIRTUAL,
  TO_LINK
}

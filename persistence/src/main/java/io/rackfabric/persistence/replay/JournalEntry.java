package io.rackfabric.persistence.replay;

import io.rackfabric.persistence.controller.ControllerEvent;

/** One event of a journal as decoded, under its sequence number. */
public record JournalEntry(long seqNr, ControllerEvent event) {}

package io.rackfabric.persistence.controller;

import akka.Done;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The step between "operation decided" and "persisted in the controller's own journal": the
 * controller persists an operation's events only after this step completes for them (and for
 * every operation before). The MMH plugs in one that completes when the BMH has persisted the
 * events (synchronous replication, Ladon section 4.3); a lone controller uses {@link #none()}, an
 * already completed stage, and then persists at once. Called on the controller's thread, once per
 * operation, in sequence-number order.
 */
@FunctionalInterface
public interface Replication {

  /**
   * Hands over the events of one operation, numbered from {@code firstSeqNr}. The stage completes
   * when they are safe on the backup; completing exceptionally answers the operation (and every
   * one after it still pending) NOT_REPLICATED, with nothing persisted in the controller's journal.
   */
  CompletionStage<Done> replicate(long firstSeqNr, List<ControllerEvent> events);

  /** No backup: persisted and acknowledged at once. */
  static Replication none() {
    return (firstSeqNr, events) -> CompletableFuture.completedFuture(Done.getInstance());
  }
}

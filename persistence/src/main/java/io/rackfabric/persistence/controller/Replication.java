package io.rackfabric.persistence.controller;

import akka.Done;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The step between "persisted in the controller's own journal" and "operation acknowledged". The
 * MMH plugs in one that completes when the BMH has persisted the events (synchronous replication,
 * seeds/000 4.3); a lone controller uses {@link #none()}. Called on the controller's thread, once
 * per operation, in sequence-number order.
 */
@FunctionalInterface
public interface Replication {

  /**
   * Hands over the events of one operation, numbered from {@code firstSeqNr}. The stage completes
   * when they are safe on the backup; completing exceptionally answers the operation
   * NOT_REPLICATED (the events stay in the controller's journal).
   */
  CompletionStage<Done> replicate(long firstSeqNr, List<ControllerEvent> events);

  /** No backup: acknowledged as soon as persisted locally. */
  static Replication none() {
    return (firstSeqNr, events) -> CompletableFuture.completedFuture(Done.getInstance());
  }
}

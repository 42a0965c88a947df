package io.rackfabric.persistence.controller;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Callbacks that run where a stage completes. Akka's asks return stages backed by a Scala future
 * whose {@code thenApply} and {@code whenComplete} (and so {@code pipeToSelf} of the Java API)
 * run on the common fork-join pool; with the common pool's parallelism at 1, as on a two-core
 * machine, the JDK runs each such callback on a thread of its own, started for it. On the control
 * plane's path that was several thread starts per operation. A plain future completed in place
 * costs nothing of the kind; keep what runs on it short (it runs on the completing thread).
 */
public final class InlineStages {

  private InlineStages() {}

  /** A plain future completed, on the completing thread, as {@code stage} completes. */
  public static <T> CompletableFuture<T> of(CompletionStage<T> stage) {
    CompletableFuture<T> plain = new CompletableFuture<>();
    stage.whenCompleteAsync((value, failure) -> {
      if (failure != null) {
        plain.completeExceptionally(failure);
      } else {
        plain.complete(value);
      }
    }, Runnable::run);
    return plain;
  }
}

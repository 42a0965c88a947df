package io.rackfabric.persistence.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class InlineStagesTest {

  @Test
  void shouldCompleteOnTheCompletingThreadWhenTheStageCompletesLater() {
    CompletableFuture<String> stage = new CompletableFuture<>();
    AtomicReference<Thread> ranOn = new AtomicReference<>();
    CompletableFuture<Integer> length = InlineStages.of(stage).thenApply(s -> {
      ranOn.set(Thread.currentThread());
      return s.length();
    });
    assertFalse(length.isDone());
    stage.complete("four");
    assertTrue(length.isDone(), "done as the stage completed, not later on another thread");
    assertEquals(4, length.join());
    assertSame(Thread.currentThread(), ranOn.get());
  }

  @Test
  void shouldBeDoneAtOnceWhenTheStageIsAndCarryItsFailure() {
    assertEquals("x", InlineStages.of(CompletableFuture.completedFuture("x")).getNow(null));
    IllegalStateException why = new IllegalStateException("refused");
    CompletableFuture<String> failed = InlineStages.of(CompletableFuture.failedFuture(why));
    assertTrue(failed.isCompletedExceptionally());
    CompletionException e = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class, failed::join);
    assertSame(why, e.getCause());
  }
}

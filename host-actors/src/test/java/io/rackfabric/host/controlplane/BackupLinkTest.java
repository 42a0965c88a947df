package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.Done;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.Replication;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class BackupLinkTest {

  private static final List<ControllerEvent> EVENTS = List.of(new ControllerEvent.TemplateImageTaken(1_000));

  @Test
  void shouldAdmitABackupOnlyWhenTheControllerReplicatesThroughItAndNoneIsLinked() {
    BackupLink link = new BackupLink();
    assertFalse(link.canAdmit(), "no controller started with it yet");
    link.controllerStarts(Replication.none());
    assertFalse(link.canAdmit(), "a paired master's controller replicates to its backup directly");
    link.controllerStarts(link);
    assertTrue(link.canAdmit());
    link.link((first, events) -> CompletableFuture.completedFuture(Done.getInstance()));
    assertFalse(link.canAdmit(), "one backup at a time");
    link.unlink();
    assertTrue(link.canAdmit());
  }

  @Test
  void shouldReplicateToTheLinkedBackupFromTheNextOperationOnWhenLinked() {
    BackupLink link = new BackupLink();
    link.controllerStarts(link);
    assertTrue(link.replicate(1, EVENTS).toCompletableFuture().isDone(), "no backup: settled at once");
    List<Long> sent = new ArrayList<>();
    CompletableFuture<Done> pending = new CompletableFuture<>();
    link.link((first, events) -> {
      sent.add(first);
      return pending;
    });
    assertFalse(link.replicate(2, EVENTS).toCompletableFuture().isDone(), "waits for the backup");
    assertEquals(List.of(2L), sent);
    link.controllerStarts(link); // a new controller (a take-over) starts without a backup
    assertTrue(link.replicate(3, EVENTS).toCompletableFuture().isDone());
    assertEquals(List.of(2L), sent);
  }
}

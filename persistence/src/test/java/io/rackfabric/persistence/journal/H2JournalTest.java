package io.rackfabric.persistence.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import akka.Done;
import akka.actor.CoordinatedShutdown;
import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.persistence.typed.PersistenceId;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.ControllerState;
import io.rackfabric.persistence.controller.Replication;
import io.rackfabric.persistence.controller.SampleRack;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The default journal for real: an H2 file, written by one actor system, read by the next. */
class H2JournalTest {

  @TempDir
  Path dataDir;

  private ActorTestKit start(String name) throws Exception {
    Config config = JournalConfig.h2(dataDir, "node-a", 2).withFallback(ConfigFactory.load());
    ActorTestKit kit = ActorTestKit.create(name, config);
    JournalConfig.createSchema(kit.system()).toCompletableFuture().get(30, TimeUnit.SECONDS);
    return kit;
  }

  private static CurrentState stateOf(ActorTestKit kit, ActorRef<Controller.Command> controller) {
    TestProbe<CurrentState> probe = kit.createTestProbe();
    controller.tell(new Controller.GetState(probe.getRef()));
    return probe.receiveMessage(java.time.Duration.ofSeconds(20));
  }

  @Test
  void shouldRecoverEqualStateWhenNodeRestartsOnItsJournalFile() throws Exception {
    List<ControllerEvent> events = new ArrayList<>();
    ControllerState expected = SampleRack.expected(events);
    PersistenceId id = PersistenceId.ofUniqueId("controller-rack1");

    ActorTestKit first = start("h2-first");
    try {
      var controller = first.spawn(Controller.create(id, 16, Replication.none()));
      TestProbe<OperationResult> acks = first.createTestProbe();
      var ops = new ArrayList<>(SampleRack.boot());
      ops.addAll(SampleRack.changes());
      for (var op : ops) {
        controller.tell(op.apply(acks.getRef()));
        OperationResult ack = acks.receiveMessage(java.time.Duration.ofSeconds(20));
        assertEquals(Status.ACCEPTED, ack.status(), ack.detail());
      }
      assertEquals(expected, stateOf(first, controller).state());
    } finally {
      first.shutdownTestKit();
    }
    assertTrue(Files.exists(dataDir.resolve("node-a.mv.db")), "no journal file in " + dataDir);

    ActorTestKit second = start("h2-second"); // schema already there: creating it again is a no-op
    try {
      var recovered = second.spawn(Controller.create(id, 16, Replication.none()));
      CurrentState state = stateOf(second, recovered);
      assertEquals(expected, state.state());
      assertEquals(events.size(), state.lastSeqNr());
    } finally {
      second.shutdownTestKit();
    }
  }

  /** H2 makes the file with the umask's permissions (022: readable by all); the node narrows both. */
  @Test
  void shouldKeepTheJournalOwnerOnlyWhenANodeCreatesIt() throws Exception {
    assumeTrue(dataDir.getFileSystem().supportedFileAttributeViews().contains("posix"), "no POSIX");
    Path plain = Files.createFile(dataDir.resolve("plain"));
    assumeTrue(!Files.getPosixFilePermissions(plain).equals(PosixFilePermissions.fromString("rw-------")),
        "the umask already makes files owner-only: nothing to show");
    Path data = dataDir.resolve("run/data");
    ActorTestKit kit = ActorTestKit.create("h2-owner-only",
        JournalConfig.h2(data, "node-a", 1).withFallback(ConfigFactory.load()));
    try {
      JournalConfig.createSchema(kit.system()).toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(data));
      assertEquals(PosixFilePermissions.fromString("rw-------"),
          Files.getPosixFilePermissions(data.resolve("node-a.mv.db")));
    } finally {
      kit.shutdownTestKit();
    }
  }

  /**
   * The journal is closed by the coordinated shutdown before the actor system terminates, not by
   * H2's JVM hook (which raced Akka's: "Database is already closed") nor only on termination: in
   * the next phase the file's lock, which H2 holds while the database is open, is free.
   */
  @Test
  void shouldCloseTheJournalInCoordinatedShutdownBeforeTheSystemTerminates() throws Exception {
    ActorTestKit kit = start("h2-closed-in-order");
    Path file = dataDir.resolve("node-a.mv.db");
    CompletableFuture<String> seen = new CompletableFuture<>();
    try {
      assertEquals("open", lockState(file), "H2 holds the file's lock while the journal is open");
      CoordinatedShutdown.get(kit.system()).addTask(CoordinatedShutdown.PhaseActorSystemTerminate(),
          "look-at-journal", () -> {
            seen.complete(lockState(file));
            return CompletableFuture.completedFuture(Done.getInstance());
          });
    } finally {
      kit.shutdownTestKit();
    }
    assertEquals("closed", seen.get(30, TimeUnit.SECONDS));
  }

  /** "open" while a connection of this JVM (H2) holds the file's lock, else "closed". */
  private static String lockState(Path file) {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      FileLock lock = channel.tryLock(0, Long.MAX_VALUE, true);
      if (lock == null) {
        return "open";
      }
      lock.release();
      return "closed";
    } catch (OverlappingFileLockException e) {
      return "open";
    } catch (IOException e) {
      return "unreadable: " + e;
    }
  }
}

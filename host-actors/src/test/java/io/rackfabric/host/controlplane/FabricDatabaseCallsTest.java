package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.management.DatabaseDelta;
import io.rackfabric.fabric.management.DeviceType;
import io.rackfabric.fabric.management.Route;
import io.rackfabric.fabric.management.TopologyDatabase;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.ControllerState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * {@link FabricDatabaseCalls} step by step, without a rack: the host's endpoint is a probe, the
 * host's controller a recorder of what is admitted and of whom asked for the state.
 */
class FabricDatabaseCallsTest {

  private static final ActorTestKit testKit = ActorTestKit.create();
  /** Told to the endpoint after the step: what the step sent arrives before it (one sender, in order). */
  private static final MemoryEndpoint.GuestDone MARKER = new MemoryEndpoint.GuestDone(-1);

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** The host as the calls see it: what it admitted, whom it told its state, whether it is cut off. */
  private static final class RecordingHost implements FabricDatabaseCalls.Host {
    final List<Controller.Operation> admitted = new ArrayList<>();
    final List<ActorRef<CurrentState>> stateAskedBy = new ArrayList<>();
    boolean cut;

    @Override
    public boolean cutOffMaster(Role role) {
      return role == Role.MASTER && cut;
    }

    @Override
    public void admit(Controller.Operation op, Role role) {
      admitted.add(op);
    }

    @Override
    public void tellState(ActorRef<CurrentState> replyTo) {
      stateAskedBy.add(replyTo);
    }
  }

  private final TestProbe<MemoryEndpoint.Command> endpoint = testKit.createTestProbe();
  private final TestProbe<OperationResult> recorded = testKit.createTestProbe();
  private final TestProbe<CurrentState> stateRead = testKit.createTestProbe();
  private final TestProbe<GuestCall> calls = testKit.createTestProbe();
  private final RecordingHost host = new RecordingHost();
  private final FabricDatabaseCalls database = new FabricDatabaseCalls("mmh",
      new HostGuest("mmh", endpoint.getRef(), calls.getRef(), true),
      LoggerFactory.getLogger(FabricDatabaseCallsTest.class), recorded.getRef(), stateRead.getRef());

  private static final TopologyDatabase.Device MMH =
      new TopologyDatabase.Device(1, DeviceType.ENDPOINT, 1, 256, Route.local());
  private static final TopologyDatabase.Device TOR =
      new TopologyDatabase.Device(10, DeviceType.SWITCH, 4, 256, Route.local());
  private static final TopologyDatabase.Device NIC =
      new TopologyDatabase.Device(20, DeviceType.ENDPOINT, 1, 256, Route.local());

  /** The primary's first change: mmh, tor and the NIC. */
  private static DatabaseDelta fullCopy() {
    return new DatabaseDelta(true, List.of(MMH, TOR, NIC), List.of(), List.of(
        TopologyDatabase.Link.of(new TopologyDatabase.End(1, 0), new TopologyDatabase.End(10, 0)),
        TopologyDatabase.Link.of(new TopologyDatabase.End(20, 0), new TopologyDatabase.End(10, 1))), List.of());
  }

  /** A rediscovery's change: the NIC removed. */
  private static DatabaseDelta nicRemoved() {
    return new DatabaseDelta(false, List.of(), List.of(), List.of(), List.of(20L));
  }

  private static OperationResult result(Controller.Status status) {
    return new OperationResult(status, 7, 21_000, status == Controller.Status.ACCEPTED ? "" : "refused", List.of());
  }

  private static List<Long> serials(DatabaseDelta d) {
    return d.devices().stream().map(TopologyDatabase.Device::serial).toList();
  }

  /** The endpoint got nothing from the steps so far. */
  private void nothingSent() {
    endpoint.getRef().tell(MARKER);
    assertEquals(MARKER, endpoint.receiveMessage());
  }

  @Test
  void shouldRecordAChangeAndEndTheCallOnlyWhenTheControllerAnswersWhenMaster() {
    assertTrue(database.called(new GuestCall.FabricDatabaseChanged(5, 21_000, fullCopy()), host, Role.MASTER));

    assertEquals(1, host.admitted.size(), "sent to the controller");
    var op = (Controller.RecordFabricDatabase) host.admitted.get(0);
    assertEquals("mmh", op.manager());
    assertEquals(fullCopy(), op.change());
    assertEquals(21_000, op.changedAt());
    assertSame(recorded.getRef(), op.replyTo());
    nothingSent(); // the endpoint waits: the backup does not hold it yet

    database.answered(result(Controller.Status.ACCEPTED));
    assertEquals(new MemoryEndpoint.GuestDone(5), endpoint.receiveMessage());
    assertEquals(0, database.notRecorded());
  }

  @Test
  void shouldEndTheCallsInOrderAndCountARefusalWhenTheControllerRefusesOne() {
    database.called(new GuestCall.FabricDatabaseChanged(5, 21_000, fullCopy()), host, Role.MASTER);
    database.called(new GuestCall.FabricDatabaseChanged(6, 30_800, nicRemoved()), host, Role.MASTER);
    assertEquals(2, host.admitted.size());

    database.answered(result(Controller.Status.NOT_REPLICATED));
    assertEquals(new MemoryEndpoint.GuestDone(5), endpoint.receiveMessage(), "the oldest call first");
    database.answered(result(Controller.Status.ACCEPTED));
    assertEquals(new MemoryEndpoint.GuestDone(6), endpoint.receiveMessage());
    assertEquals(1, database.notRecorded(), "the refused change");

    database.answered(result(Controller.Status.ACCEPTED)); // an answer with no call open: nothing to end
    nothingSent();
  }

  @Test
  void shouldAnswerAtOnceAndRecordNothingWhenBackupOrCutOff() {
    assertTrue(database.called(new GuestCall.FabricDatabaseChanged(5, 21_000, fullCopy()), host, Role.BACKUP));
    assertEquals(new MemoryEndpoint.GuestDone(5), endpoint.receiveMessage(), "the endpoint does not wait");

    host.cut = true;
    assertTrue(database.called(new GuestCall.FabricDatabaseChanged(6, 30_800, nicRemoved()), host, Role.MASTER));
    assertEquals(new MemoryEndpoint.GuestDone(6), endpoint.receiveMessage(), "a master cut off from its backup records nothing");

    assertTrue(host.admitted.isEmpty());
    assertEquals(2, database.notRecorded());
  }

  @Test
  void shouldRecordWhatChangedWhileBackupAsOneFullCopyWhenItsFirstChangeAsMasterComes() {
    database.called(new GuestCall.FabricDatabaseChanged(5, 55_000, fullCopy()), host, Role.BACKUP);
    database.called(new GuestCall.FabricDatabaseChanged(6, 56_000, nicRemoved()), host, Role.BACKUP);
    var nicBack = new DatabaseDelta(false, List.of(NIC), List.of(), List.of(), List.of());

    database.called(new GuestCall.FabricDatabaseChanged(7, 39_000_000_000L, nicBack), host, Role.MASTER);

    var op = (Controller.RecordFabricDatabase) host.admitted.get(0);
    assertTrue(op.change().full(), "whole, with the change on top");
    assertEquals(List.of(1L, 10L, 20L), serials(op.change()), "removed while backup, back as master");
    assertEquals(39_000_000_000L, op.changedAt());

    database.called(new GuestCall.FabricDatabaseChanged(8, 39_000_001_000L, nicRemoved()), host, Role.MASTER);
    assertEquals(nicRemoved(), ((Controller.RecordFabricDatabase) host.admitted.get(1)).change(),
        "recorded once: the next change is the delta itself");
  }

  @Test
  void shouldKeepNothingToRecordLaterWhenOnlyDeltasReachedItAsBackup() {
    database.called(new GuestCall.FabricDatabaseChanged(5, 56_000, nicRemoved()), host, Role.BACKUP);

    database.called(new GuestCall.FabricDatabaseChanged(6, 57_000, nicRemoved()), host, Role.MASTER);

    assertEquals(nicRemoved(), ((Controller.RecordFabricDatabase) host.admitted.get(0)).change(),
        "no full copy under the backup's deltas: the change as it is");
  }

  @Test
  void shouldHandTheEndpointTheStatesDatabaseBeforeEndingTheCallWhenATakeOverAsksForIt() {
    assertTrue(database.called(new GuestCall.FabricDatabaseWanted(9, 55_237), host, Role.BACKUP));
    assertEquals(List.of(stateRead.getRef()), host.stateAskedBy, "the replica's state read");
    nothingSent();

    ControllerState state = ControllerState.empty()
        .apply(new ControllerEvent.FabricDatabaseRecorded("mmh", fullCopy(), 21_000, 60_000))
        .apply(new ControllerEvent.FabricDatabaseRecorded("mmh", nicRemoved(), 30_800, 60_000));
    database.stateRead(new CurrentState(4, 0, state));

    var kept = (MemoryEndpoint.FabricDatabaseKept) endpoint.receiveMessage();
    assertEquals("mmh", kept.manager());
    assertEquals(List.of(1L, 10L), serials(kept.database()), "the state's database: the NIC's removal in it");
    assertEquals(new MemoryEndpoint.GuestDone(9), endpoint.receiveMessage(), "then the call ends");
  }

  @Test
  void shouldHandTheEndpointNoDatabaseWhenTheStateHoldsNone() {
    database.called(new GuestCall.FabricDatabaseWanted(9, 55_237), host, Role.BACKUP);

    database.stateRead(new CurrentState(0, 0, ControllerState.empty()));

    assertEquals(new MemoryEndpoint.FabricDatabaseKept(null, null), endpoint.receiveMessage(),
        "none: the fabric manager falls back to its copy over the fabric");
    assertEquals(new MemoryEndpoint.GuestDone(9), endpoint.receiveMessage());
    database.stateRead(new CurrentState(0, 0, ControllerState.empty())); // no request open: nothing
    nothingSent();
  }

  @Test
  void shouldTakeNothingElseWhenTheCallIsNotAboutTheDatabase() {
    assertFalse(database.called(new GuestCall.Wake(3, 1_000, 1), host, Role.MASTER));
    assertTrue(host.admitted.isEmpty());
    assertTrue(host.stateAskedBy.isEmpty());
    nothingSent();
  }
}

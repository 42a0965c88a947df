package io.rackfabric.persistence.kryo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.typed.ActorRef;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import akka.serialization.Serializers;
import io.rackfabric.fabric.kryo.KryoSerializer;
import io.rackfabric.fabric.kryo.WireRegistry;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.fabric.wire.WireRegistrations.Entry;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.ControllerState;
import io.rackfabric.persistence.controller.SampleRack;
import io.rackfabric.persistence.replication.ControllerReplica;
import io.rackfabric.persistence.wire.Journaled;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class PersistenceWireTest {

  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final Serialization serialization =
      SerializationExtension.get(testKit.system().classicSystem());

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** One instance of every top-level message and event of the module, from the sample rack. */
  static List<Object> samples(ActorRef<?> ref) {
    List<ControllerEvent> events = new ArrayList<>();
    ControllerState state = SampleRack.expectedWithLoans(events);
    List<Object> out = new ArrayList<>(events);
    out.add(new ControllerEvent.OfferWithdrawn("gpu0", 20_000));
    out.add(new ControllerEvent.DeviceReturned("gpu0", "ch1", 20_000));
    out.add(new ControllerEvent.HostRemoved("ch2", 20_000));
    out.add(new ControllerEvent.LoanWindowMoved("gpu0", "ch1", 0x1060_0000_0000L, 64 * 1024, 32 * SampleRack.GIB,
        20_000));
    out.add(new ControllerEvent.DeviceRemoved("ntb1", 20_000));
    ControllerEvent.MsiPathOpened msiPath = new ControllerEvent.MsiPathOpened("gpu0", "ch1", SampleRack.MSI_WORD,
        20_000);
    out.add(msiPath);
    out.add(new ControllerEvent.MsiPathClosed("gpu0", "ch1", 20_000));
    out.add(new ControllerEvent.VfFreed("nic0", 1, 20_000));
    ControllerEvent.RequestApplied applied = new ControllerEvent.RequestApplied("ch1-driver", 4, 20_000);
    out.add(applied);
    out.add(state.apply(applied));
    out.add(state.apply(applied).toSnapshot());
    out.add(state.apply(applied).apply(msiPath).toSnapshot());
    ControllerEvent.SteppedDown steppedDown = new ControllerEvent.SteppedDown("bmh", 651_090_000L, 28, 3_500_000_000L);
    out.add(steppedDown);
    out.add(state.apply(applied).apply(steppedDown));
    ControllerEvent.FabricDatabaseRecorded fabric = (ControllerEvent.FabricDatabaseRecorded)
        GoldenBytesTest.removal(ControllerEvent.FabricDatabaseRecorded.class);
    out.add(fabric);
    out.add(state.apply(fabric)); // its fabric database carried in the state's snapshot form
    @SuppressWarnings("unchecked")
    ActorRef<Controller.OperationResult> results = (ActorRef<Controller.OperationResult>) ref;
    out.add(new Controller.RecordFabricDatabase("mmh", fabric.change(), 21_142, 60_000, results));
    out.add(new Controller.Request("ch1-driver", 5,
        new Controller.CloseIommuPage("ch1", 0x0400, 32 * SampleRack.GIB + 4096, 21_000, results)));
    SampleRack.boot().forEach(op -> out.add(op.apply(results)));
    SampleRack.changes().forEach(op -> out.add(op.apply(results)));
    SampleRack.lending().forEach(op -> out.add(op.apply(results)));
    out.add(SampleRack.lendingWithMsi().get(1).apply(results));
    out.add(new Controller.WithdrawOffer("gpu0", "ch2", 1, results));
    out.add(new Controller.ReturnDevice("gpu0", "ch1", 1, results));
    out.add(new Controller.MoveLoanWindow("gpu0", "ch1", 0x1060_0000_0000L, 64 * 1024, 32 * SampleRack.GIB, 1,
        results));
    out.add(new Controller.RemoveHost("ch1", 1, results));
    out.add(new Controller.RemoveDevice("nic0", 1, results));
    out.add(new Controller.StepDown("bmh", 651_090_000L, 3_500_000_000L, results));
    @SuppressWarnings("unchecked")
    ActorRef<Controller.CurrentState> states = (ActorRef<Controller.CurrentState>) ref;
    out.add(new Controller.GetState(states));
    out.add(new Controller.CurrentState(9, 2, state));
    out.add(new Controller.OperationResult(Controller.Status.ACCEPTED, 3, 100, "persisted",
        events.subList(0, 2)));
    out.add(new Controller.OperationResult(Controller.Status.OVERLOADED, 3, 100, "overloaded", null));
    out.add(new Controller.OperationResult(Controller.Status.NOT_MASTER, 3, 100, "not the master", null));
    @SuppressWarnings("unchecked")
    ActorRef<ControllerReplica.ReplicationAck> acks = (ActorRef<ControllerReplica.ReplicationAck>) ref;
    out.add(new ControllerReplica.ReplicateEvents(4, events.subList(3, 6), acks));
    out.add(new ControllerReplica.ReplicationAck(false, 3, "gap"));
    out.add(new ControllerReplica.GetState(states));
    return out;
  }

  @Test
  void shouldKeepPinnedIdsWhenLoadedThroughServiceLoader() {
    WireRegistry registry = WireRegistry.load(getClass().getClassLoader());
    assertEquals(1000, registry.idOf(ControllerEvent.HostAdded.class));
    assertEquals(1012, registry.idOf(ControllerEvent.TemplateImageTaken.class));
    assertEquals(1042, registry.idOf(io.rackfabric.persistence.controller.ControllerSnapshot.class));
    assertEquals(1065, registry.idOf(Controller.OperationResult.class));
    assertEquals(1080, registry.idOf(ControllerReplica.ReplicateEvents.class));
    for (Entry e : new PersistenceWireRegistrations().registrations()) {
      assertTrue(e.id() >= 1000 && e.id() < 2000, "id " + e.id() + " outside persistence's range");
    }
  }

  @Test
  void shouldRoundTripEveryRegisteredClassWhenSerializedThroughAkka() {
    List<Object> samples = samples(testKit.createTestProbe().getRef());
    Set<Class<?>> covered = new HashSet<>();
    for (Object sample : samples) {
      collect(sample, covered);
      if (!(sample instanceof WireMessage)) {
        continue; // a value (the snapshot record), checked inside the state
      }
      akka.serialization.Serializer chosen = serialization.findSerializerFor(sample);
      int expectedId = sample instanceof Journaled ? JournalSerializer.IDENTIFIER : KryoSerializer.IDENTIFIER;
      assertEquals(expectedId, chosen.identifier(), sample.getClass().getName());
      byte[] bytes = serialization.serialize(sample).get();
      Object back = serialization.deserialize(
          bytes, chosen.identifier(), Serializers.manifestFor(chosen, sample)).get();
      assertNotSame(sample, back);
      assertEquals(sample, back, sample.getClass().getName());
    }
    for (Entry e : new PersistenceWireRegistrations().registrations()) {
      assertTrue(covered.contains(e.type()), "no sample covers registered " + e.type().getName());
    }
  }

  /** Every class reachable from {@code value} through record components and lists. */
  private static void collect(Object value, Set<Class<?>> into) {
    if (value == null) {
      return;
    }
    if (value instanceof List<?> list) {
      list.forEach(v -> collect(v, into));
      return;
    }
    into.add(value.getClass());
    if (value instanceof Enum<?> e) {
      into.add(e.getDeclaringClass());
    }
    if (value instanceof ControllerState s) {
      collect(s.toSnapshot(), into);
    }
    if (value.getClass().isRecord()) {
      for (RecordComponent c : value.getClass().getRecordComponents()) {
        try {
          collect(c.getAccessor().invoke(value), into);
        } catch (ReflectiveOperationException ex) {
          throw new AssertionError(ex);
        }
      }
    }
  }
}

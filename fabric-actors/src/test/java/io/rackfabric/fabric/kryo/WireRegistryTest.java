package io.rackfabric.fabric.kryo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.link.InitFc;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.PhysicalDown;
import io.rackfabric.fabric.link.TlpFrame;
import io.rackfabric.fabric.link.UpdateFc;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.MulticastGroup;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.ConfigRead;
import io.rackfabric.fabric.tlp.ConfigWrite;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.TlpClass;
import io.rackfabric.fabric.wire.WireRegistrations;
import io.rackfabric.fabric.wire.WireRegistrations.Entry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WireRegistryTest {

  static final class FirstModule implements WireRegistrations {
    @Override
    public List<Entry> registrations() {
      return List.of(Entry.of(1000, String.class), Entry.of(1001, Integer.class));
    }
  }

  static final class SecondModule implements WireRegistrations {
    @Override
    public List<Entry> registrations() {
      return List.of(Entry.of(2000, Long.class), Entry.of(1001, Short.class));
    }
  }

  static final class ThirdModule implements WireRegistrations {
    @Override
    public List<Entry> registrations() {
      return List.of(Entry.of(3000, Integer.class));
    }
  }

  static final class LowIdModule implements WireRegistrations {
    @Override
    public List<Entry> registrations() {
      return List.of(Entry.of(99, Short.class));
    }
  }

  @Test
  void shouldFailNamingBothWhenTwoContributorsClaimOneId() {
    var failure = assertThrows(IllegalStateException.class,
        () -> WireRegistry.of(List.of(new FirstModule(), new SecondModule())));

    assertEquals("wire id 1001 is claimed twice: by id 1001 java.lang.Integer (from "
        + FirstModule.class.getName() + ") and by id 1001 java.lang.Short (from "
        + SecondModule.class.getName() + ")", failure.getMessage());
  }

  @Test
  void shouldFailNamingBothWhenTwoContributorsRegisterOneClass() {
    var failure = assertThrows(IllegalStateException.class,
        () -> WireRegistry.of(List.of(new FirstModule(), new ThirdModule())));

    assertEquals("class java.lang.Integer is registered twice: as id 1001 java.lang.Integer (from "
        + FirstModule.class.getName() + ") and as id 3000 java.lang.Integer (from "
        + ThirdModule.class.getName() + ")", failure.getMessage());
  }

  @Test
  void shouldFailWhenIdIsInKryosOwnRange() {
    var failure = assertThrows(IllegalStateException.class,
        () -> WireRegistry.of(List.of(new LowIdModule())));

    assertTrue(failure.getMessage().startsWith("wire id 99 for java.lang.Short"),
        failure.getMessage());
  }

  @Test
  void shouldFindFabricAndTestContributorsWhenLoadedThroughServiceLoader() {
    WireRegistry registry = WireRegistry.load(getClass().getClassLoader());

    assertEquals(100, registry.idOf(MemWrite.class));
    assertEquals(9000, registry.idOf(WireTestMessages.WithRef.class));
    assertEquals(-1, registry.idOf(WireTestMessages.Unregistered.class));
    List<Integer> ids = registry.entries().stream().map(r -> r.entry().id()).toList();
    List<Integer> sorted = new ArrayList<>(ids);
    sorted.sort(null);
    assertEquals(sorted, ids);
  }

  /** Ids are written into journals and onto the wire: this table may grow, never change. */
  @Test
  void shouldKeepEveryFabricIdWhenTheTableIsEdited() {
    Map<Class<?>, Integer> pinned = Map.ofEntries(
        Map.entry(byte[].class, 200),
        Map.entry(List.of().getClass(), 201),
        Map.entry(List.of(0).getClass(), 202),
        Map.entry(List.of(0, 1, 2).subList(0, 2).getClass(), 203),
        Map.entry(ArrayList.class, 204),
        Map.entry(java.util.Arrays.asList().getClass(), 205),
        Map.entry(java.util.Collections.unmodifiableList(new ArrayList<>()).getClass(), 206),
        Map.entry(java.util.Collections.emptyList().getClass(), 207),
        Map.entry(java.util.Collections.singletonList(0).getClass(), 208),
        Map.entry(akka.actor.typed.ActorRef.class, 120),
        Map.entry(akka.actor.ActorRef.class, 121),
        Map.entry(MemWrite.class, 100),
        Map.entry(MemRead.class, 101),
        Map.entry(Completion.class, 102),
        Map.entry(ConfigRead.class, 103),
        Map.entry(ConfigWrite.class, 104),
        Map.entry(ErrorMessage.class, 105),
        Map.entry(ErrorMessage.Severity.class, 130),
        Map.entry(ErrorMessage.Cause.class, 131),
        Map.entry(CompletionStatus.class, 132),
        Map.entry(TlpClass.class, 133),
        Map.entry(TlpFrame.class, 110),
        Map.entry(InitFc.class, 111),
        Map.entry(UpdateFc.class, 112),
        Map.entry(PhysicalDown.class, 113),
        Map.entry(LinkParameters.class, 140),
        Map.entry(FcCredits.class, 150),
        Map.entry(AddressRange.class, 160),
        Map.entry(BridgeRegisters.class, 170),
        Map.entry(PortConfig.class, 171),
        Map.entry(MulticastGroup.class, 172),
        Map.entry(RoutingTable.class, 173),
        Map.entry(PortRole.class, 180),
        Map.entry(NtbBar.class, 190),
        Map.entry(NtbConfig.class, 191),
        Map.entry(io.rackfabric.fabric.ntb.RequesterIdEntry.class, 192),
        Map.entry(io.rackfabric.fabric.ntb.NtbDirection.class, 193));
    WireRegistry registry = WireRegistry.of(List.of(new FabricWireRegistrations()));

    pinned.forEach((type, id) -> assertEquals(id, registry.idOf(type),
        type.getName() + " must keep wire id " + id));
  }
}

package io.rackfabric.fabric.kryo;

import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.Adapter;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.ntb.NtbDirection;
import io.rackfabric.fabric.ntb.RequesterIdEntry;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.MulticastGroup;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.ConfigRead;
import io.rackfabric.fabric.tlp.ConfigWrite;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One instance of any registered class: a hand-written sample where the constructor validates
 * (bus numbers, lengths, ranges, role consistency), otherwise generated from the record
 * components. Also the deep equality the round-trip tests need, since records compare byte[]
 * fields by identity.
 */
final class WireSamples {

  private final Map<Class<?>, Object> samples = new LinkedHashMap<>();
  private final List<Class<?>> registered;
  private final ActorRef<String> ref;

  WireSamples(WireRegistry registry, ActorRef<String> ref) {
    this.registered = registry.entries().stream().<Class<?>>map(r -> r.entry().type()).toList();
    this.ref = ref;
    byte[] four = {1, 2, 3, 4};
    AddressRange mem = new AddressRange(0x1000_0000L, 0x1fff_ffffL);
    AddressRange bar = AddressRange.ofSize(0x2000_0000L, 0x10_0000L);
    NtbBar linkBar = new NtbBar(bar, 0x8_0000_0000L);
    NtbBar virtualBar = new NtbBar(AddressRange.ofSize(0x4000, 0x1000), 0x3000_0000L);
    BridgeRegisters bridge = new BridgeRegisters(0, 1, 4, mem, null);
    PortConfig upstream = new PortConfig("up", 0, PortRole.UPSTREAM, 1, bridge, null);
    NtbConfig ntb = new NtbConfig(Bdf.of(9, 0, 0), 12, List.of(linkBar), List.of(virtualBar),
        List.of(new RequesterIdEntry(NtbDirection.TO_VIRTUAL, 40, Bdf.of(0, 0, 0)),
            new RequesterIdEntry(NtbDirection.TO_LINK, 200, Bdf.of(0, 1, 2))));
    PortConfig ntbPort = new PortConfig("ntb", 3, PortRole.NTB, 1, null, ntb);
    MulticastGroup group =
        new MulticastGroup(1, AddressRange.ofSize(0xF000_0000L, 0x1000), List.of(0, 3));

    put(new MemWrite(Bdf.of(1, 0, 0), 7, 0, 0x1_0000_0000L, 4, four, 10, 11));
    put(new MemRead(Bdf.of(2, 3, 1), 8, 1, 0x2000, 64, 5, 6));
    put(new Completion(Bdf.of(3, 0, 0), Bdf.of(1, 0, 0), 8, 1, CompletionStatus.SUCCESSFUL, 64,
        0, 4, four, 5, 6));
    put(new ConfigRead(Bdf.of(0, 0, 0), 1, Bdf.of(4, 0, 0), 1, 0x10, 3));
    put(new ConfigWrite(Bdf.of(0, 0, 0), 2, Bdf.of(4, 0, 0), 0, 0x04, 0xCAFE, 3));
    put(new FcCredits(32, 256, 32, 0, 0, 0));
    put(new io.rackfabric.fabric.endpoint.TrafficPlan(0xA0000, 0x1000, 64, 100, 200, false, true));
    put(new io.rackfabric.fabric.endpoint.TrafficPlan.RouteFollowing(0x1234_5678_9ABCL, new int[] {3, 4},
        new long[] {0, 1L << 40}));
    put(LinkParameters.gen3x4());
    put(mem);
    put(linkBar);
    put(bridge);
    put(upstream);
    put(ntb);
    put(group);
    PortConfig acsDownstream = new PortConfig("down", 1, PortRole.DOWNSTREAM, 1,
        new BridgeRegisters(1, 2, 2, mem, null), null, true);
    put(new RoutingTable(List.of(upstream, acsDownstream, ntbPort), List.of(group)));
    put(new WireTestMessages.Checked(42));
    put(new WireTestMessages.Envelope(new MemRead(Bdf.of(2, 0, 0), 1, 0, 0x10, 4, 0, 0)));
    put(byte[].class, four);
    put(long[].class, new long[] {3, 0, Long.MAX_VALUE});
    put(int[].class, new int[] {0xF000_0010, 7, -1});
    var route = new io.rackfabric.fabric.management.Route(List.of(0, 3, 15));
    var request = new io.rackfabric.fabric.management.Pi4ReadRequest(route, 2, 17, 0, 0x100, 6);
    put(io.rackfabric.fabric.management.ReadResult.class, request.answer(
        new io.rackfabric.fabric.management.ReadResult(new int[] {0xF000_0010, 7}, null)).result());
    put(request.answer(new io.rackfabric.fabric.management.ReadResult(new int[] {0xF000_0010, 7}, null)));
    put(new io.rackfabric.fabric.management.Pi4Write(route, 1, 0, 0x704, new int[] {3, 0x0F03}));
    var end = new io.rackfabric.fabric.management.TopologyDatabase.End(12, 3);
    put(new io.rackfabric.fabric.management.FmDatabaseUpdate(7, 2, 1, 3, false,
        List.of(new io.rackfabric.fabric.management.TopologyDatabase.Device(12,
            io.rackfabric.fabric.management.DeviceType.SWITCH, 16, 256, io.rackfabric.fabric.management.Route.local())),
        List.of(new io.rackfabric.fabric.management.TopologyDatabase.Port(12, 3,
            io.rackfabric.fabric.management.PortKind.DOWNSTREAM, 1, 4, 3, 4, 3,
            io.rackfabric.fabric.link.DataLinkState.DL_ACTIVE, io.rackfabric.fabric.link.DataLinkState.DL_PROTECTED)),
        List.of(io.rackfabric.fabric.management.TopologyDatabase.Link.of(end,
            new io.rackfabric.fabric.management.TopologyDatabase.End(9, 0))), List.of(5L)));
    put(new io.rackfabric.fabric.management.DatabaseDelta(false,
        List.of(new io.rackfabric.fabric.management.TopologyDatabase.Device(12,
            io.rackfabric.fabric.management.DeviceType.SWITCH, 16, 256, io.rackfabric.fabric.management.Route.local())),
        List.of(), List.of(io.rackfabric.fabric.management.TopologyDatabase.Link.of(end,
            new io.rackfabric.fabric.management.TopologyDatabase.End(9, 0))), List.of(5L)));
    var path = new io.rackfabric.fabric.management.PathTable.Entry(9, route);
    put(path);
    var table = new io.rackfabric.fabric.management.PathTable(7, List.of(path,
        new io.rackfabric.fabric.management.PathTable.Entry(9, route, 1)));
    put(table);
    put(new io.rackfabric.fabric.endpoint.EndpointEvent.PathTableWritten("ch1", table, 53_119));
    var round = new io.rackfabric.fabric.management.PathReport.Round(1, "discovery", 14_822, 12, List.of(7L, 9L), 12, 4,
        360);
    put(round);
    put(new io.rackfabric.fabric.management.PathReport(List.of(round), List.of(table), 0));
    var held = new io.rackfabric.fabric.management.PathTableHeld.Held(1, 15_529);
    put(held);
    put(new io.rackfabric.fabric.management.PathTableHeld(table, 1, List.of(held), 2));
    // Each List implementation the registry names, as its own class.
    for (List<?> list : List.of(
        List.of(), List.of(1), List.of(1, 2, 3).subList(0, 2), new ArrayList<>(List.of("a")),
        Arrays.asList("a", "b"), Collections.unmodifiableList(new ArrayList<>(List.of(1))),
        Collections.emptyList(), Collections.singletonList("s"))) {
      put(list.getClass(), list);
    }
    put(ActorRef.class, ref);
    put(akka.actor.ActorRef.class, Adapter.toClassic(ref));
  }

  private void put(Object sample) {
    put(sample.getClass(), sample);
  }

  private void put(Class<?> type, Object sample) {
    samples.putIfAbsent(type, sample);
  }

  /** Edge cases also worth a round trip: nulls where the domain allows them. */
  static List<Object> extras() {
    MemRead read = new MemRead(Bdf.of(1, 0, 0), 5, 0, 0x1000, 16, 1, 2);
    return List.of(
        new MemWrite(Bdf.of(1, 0, 0), 1, 0, 0x1000, 4096, null, 0, 0),
        Completion.error(Bdf.of(2, 0, 0), read, CompletionStatus.UNSUPPORTED_REQUEST, 9),
        new BridgeRegisters(1, 2, 2, null, null),
        new NtbConfig(0, List.of(), List.of()),
        new RoutingTable(List.of(), List.of()),
        // a plan that follows the path table (the sample above has none)
        new io.rackfabric.fabric.endpoint.TrafficPlan(0xA0000, 0x1000, 64, 100, 200, false, true, 5_000,
            new io.rackfabric.fabric.endpoint.TrafficPlan.RouteFollowing(7, new int[] {1}, new long[] {64})));
  }

  /** A sample of {@code type}, or an AssertionError naming it when there is none. */
  Object sampleOf(Class<?> type) {
    Object sample = samples.get(type);
    if (sample != null) {
      return sample;
    }
    try {
      return generate(type, type);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new AssertionError(
          "no sample for registered " + type.getName()
              + ": add one to WireSamples (generating it failed: " + e + ")", e);
    }
  }

  private Object generate(Class<?> type, Type generic) throws ReflectiveOperationException {
    Object sample = samples.get(type);
    if (sample != null) {
      return sample;
    }
    if (type == int.class || type == Integer.class) {
      return 1;
    }
    if (type == long.class || type == Long.class) {
      return 1L;
    }
    if (type == boolean.class || type == Boolean.class) {
      return true;
    }
    if (type == double.class || type == Double.class) {
      return 0.25; // a probability, valid wherever one is checked
    }
    if (type == String.class) {
      return "x";
    }
    if (type == byte[].class) {
      return new byte[] {1, 2, 3};
    }
    if (type == long[].class) {
      return new long[] {7, 9};
    }
    if (type.isEnum()) {
      return type.getEnumConstants()[0];
    }
    if (type == List.class) {
      Type element = generic instanceof ParameterizedType p ? p.getActualTypeArguments()[0] : null;
      if (!(element instanceof Class<?> c)) {
        throw new IllegalArgumentException("cannot tell the element type of " + generic);
      }
      return List.of(generate(c, c));
    }
    if (akka.actor.typed.ActorRef.class.isAssignableFrom(type)) {
      return ref;
    }
    if (type.isRecord()) {
      RecordComponent[] components = type.getRecordComponents();
      Class<?>[] types = new Class<?>[components.length];
      Object[] values = new Object[components.length];
      for (int i = 0; i < components.length; i++) {
        types[i] = components[i].getType();
        values[i] = generate(types[i], components[i].getGenericType());
      }
      Constructor<?> canonical = type.getDeclaredConstructor(types);
      canonical.setAccessible(true);
      return canonical.newInstance(values);
    }
    if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
      // A sealed interface such as Tlp: any registered record implementing it will do.
      for (Class<?> candidate : registered) {
        if (type.isAssignableFrom(candidate) && candidate.isRecord()) {
          return generate(candidate, candidate);
        }
      }
    }
    throw new IllegalArgumentException("cannot generate a " + generic.getTypeName());
  }

  /** Equality that compares arrays by content and looks inside records and lists. */
  static boolean deepEquals(Object a, Object b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null) {
      return false;
    }
    if (a.getClass().isArray()) {
      if (!b.getClass().isArray() || Array.getLength(a) != Array.getLength(b)) {
        return false;
      }
      for (int i = 0; i < Array.getLength(a); i++) {
        if (!deepEquals(Array.get(a, i), Array.get(b, i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!deepEquals(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a.getClass().isRecord()) {
      if (a.getClass() != b.getClass()) {
        return false;
      }
      for (RecordComponent c : a.getClass().getRecordComponents()) {
        try {
          c.getAccessor().setAccessible(true);
          if (!deepEquals(c.getAccessor().invoke(a), c.getAccessor().invoke(b))) {
            return false;
          }
        } catch (ReflectiveOperationException e) {
          throw new AssertionError("cannot read " + c + " of " + a.getClass().getName(), e);
        }
      }
      return true;
    }
    return a.equals(b);
  }
}

package io.rackfabric.fabric.kryo;

import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.fabric.wire.WireRegistrations;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The fixed list of (id, class) registrations that {@link KryoSerializer} uses for every {@link
 * WireMessage} and for every type that appears inside one. It is the union of all {@link
 * WireRegistrations} found through {@link ServiceLoader}: fabric-actors' own {@link
 * FabricWireRegistrations} plus whatever other modules contribute.
 *
 * <p><b>Ids never change once given.</b> The id is what Kryo writes in place of the class name, so
 * bytes already in a journal or in flight between JVMs of different builds are read back through
 * it: renumbering a class, or reusing the id of a removed class for another one, silently turns
 * old bytes into the wrong type or into garbage. Add new classes under new ids; when a class is
 * removed, retire its id and leave a comment saying so.
 *
 * <p>Ids below {@value #MIN_ID} are Kryo's own (primitives, String). Ranges, with gaps left inside
 * each so that a package can grow next to its neighbours:
 *
 * <ul>
 *   <li>100..999 fabric-actors (table in {@link FabricWireRegistrations}). Ids up to 125 are the
 *       only ones Kryo writes in a single byte; fabric-actors spends them on the data path.
 *   <li>1000..1999 persistence
 *   <li>2000..2999 host-actors
 *   <li>3000..3999 cluster-config
 *   <li>4000..4999 load-tests
 *   <li>9000..9999 test-only classes
 * </ul>
 *
 * The ranges are a convention; what is enforced, when the registry is built (so at the first
 * serialization of an actor system), is that no id and no class is claimed twice.
 */
public final class WireRegistry {

  /** Lowest id a contributor may use; Kryo's built-in registrations sit below it. */
  public static final int MIN_ID = 100;

  /** A registration and the contributor it came from, for error messages. */
  public record Registered(WireRegistrations.Entry entry, String source) {}

  private final List<Registered> entries;
  private final Map<Class<?>, Registered> byClass;

  private WireRegistry(List<Registered> entries, Map<Class<?>, Registered> byClass) {
    this.entries = entries;
    this.byClass = byClass;
  }

  /**
   * Every contributor visible to {@code loader}. Fails if fabric-actors' own registrations are not
   * among them: that happens when a fat jar was built without merging META-INF/services, and then
   * the other modules' registrations are missing too.
   */
  public static WireRegistry load(ClassLoader loader) {
    List<WireRegistrations> found = new ArrayList<>();
    ServiceLoader.load(WireRegistrations.class, loader).forEach(found::add);
    if (found.stream().noneMatch(c -> c instanceof FabricWireRegistrations)) {
      throw new IllegalStateException(
          FabricWireRegistrations.class.getName()
              + " was not found through META-INF/services/" + WireRegistrations.class.getName()
              + " (found " + found + "): were service files merged when packaging?");
    }
    return of(found);
  }

  /** The union of {@code contributors}; fails naming both sides on a duplicate id or class. */
  public static WireRegistry of(List<? extends WireRegistrations> contributors) {
    Map<Integer, Registered> byId = new HashMap<>();
    Map<Class<?>, Registered> byClass = new HashMap<>();
    List<Registered> all = new ArrayList<>();
    for (WireRegistrations contributor : contributors) {
      String source = contributor.getClass().getName();
      for (WireRegistrations.Entry e : contributor.registrations()) {
        Registered r = new Registered(e, source);
        if (e.id() < MIN_ID) {
          throw new IllegalStateException(
              "wire id " + e.id() + " for " + e.type().getName() + " (from " + source
                  + ") is below " + MIN_ID + ", which Kryo keeps for its own registrations");
        }
        Registered sameId = byId.putIfAbsent(e.id(), r);
        if (sameId != null) {
          throw new IllegalStateException(
              "wire id " + e.id() + " is claimed twice: by " + describe(sameId) + " and by "
                  + describe(r));
        }
        Registered sameClass = byClass.putIfAbsent(e.type(), r);
        if (sameClass != null) {
          throw new IllegalStateException(
              "class " + e.type().getName() + " is registered twice: as " + describe(sameClass)
                  + " and as " + describe(r));
        }
        all.add(r);
      }
    }
    all.sort(Comparator.comparingInt(r -> r.entry().id()));
    return new WireRegistry(Collections.unmodifiableList(all), Map.copyOf(byClass));
  }

  private static String describe(Registered r) {
    return "id " + r.entry().id() + " " + r.entry().type().getName() + " (from " + r.source() + ")";
  }

  /** All registrations, by ascending id. */
  public List<Registered> entries() {
    return entries;
  }

  /** Whether {@code type} itself (not a supertype) has an id. */
  public boolean contains(Class<?> type) {
    return byClass.containsKey(type);
  }

  /** The id of {@code type}, or -1 when it has none. */
  public int idOf(Class<?> type) {
    Registered r = byClass.get(type);
    return r == null ? -1 : r.entry().id();
  }
}

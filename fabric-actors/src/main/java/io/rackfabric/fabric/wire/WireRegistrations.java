package io.rackfabric.fabric.wire;

import com.esotericsoftware.kryo.Serializer;
import java.util.List;

/**
 * One module's contribution to the wire registry ({@code io.rackfabric.fabric.kryo.WireRegistry}):
 * the classes it sends over the wire or into a journal, each with a fixed id. A module implements
 * this interface and lists the implementation in {@code
 * META-INF/services/io.rackfabric.fabric.wire.WireRegistrations}; the registry finds it through
 * {@link java.util.ServiceLoader}, so fabric-actors never has to be edited to add another module's
 * classes. Ids are permanent: see the registry for the rules and ranges. This interface stays in
 * {@code wire}, beside {@link WireMessage}, so that a module's message packages never depend on
 * the Kryo implementation, which imports them all.
 */
public interface WireRegistrations {

  /** The registrations, in any order. */
  List<Entry> registrations();

  /**
   * Makes the Kryo serializer for one registration. A factory rather than an instance because each
   * pooled Kryo needs its own serializer objects: Kryo serializers may keep per-instance state and
   * are not required to be thread-safe.
   */
  @FunctionalInterface
  interface SerializerFactory {
    Serializer<?> create(akka.actor.typed.ActorSystem<?> system);
  }

  /**
   * A fixed id for a class, and optionally how to serialize it. Without a factory, records go
   * through their canonical constructor (so compact-constructor validation runs on read) and other
   * classes get Kryo's default serializer (enums by ordinal, arrays element by element).
   */
  record Entry(int id, Class<?> type, SerializerFactory serializer) {

    public Entry {
      if (type == null) {
        throw new IllegalArgumentException("wire id " + id + ": type is null");
      }
    }

    public static Entry of(int id, Class<?> type) {
      return new Entry(id, type, null);
    }

    public static Entry of(int id, Class<?> type, SerializerFactory serializer) {
      return new Entry(id, type, serializer);
    }
  }
}

package io.rackfabric.fabric.kryo;

import akka.actor.ExtendedActorSystem;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import akka.serialization.JSerializer;
import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.RecordSerializer;
import com.esotericsoftware.kryo.util.DefaultClassResolver;
import com.esotericsoftware.kryo.util.Pool;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.fabric.wire.WireRegistrations;

/**
 * The Akka serializer for every {@link WireMessage} (bound in reference.conf as {@code
 * rackfabric-kryo}). Kryo with registration required: every class that reaches the bytes has a
 * fixed id from {@link WireRegistry}, and anything else fails naming the class instead of falling
 * back to Java serialization. Records are rebuilt through their canonical constructor, so their
 * validation runs on every read. Actor refs travel as paths (see {@link ActorRefSerializers}).
 */
// JSerializer rather than SerializerWithStringManifest: the registration id Kryo writes at the
// head of the bytes already names the class, so a manifest would only repeat it.
public final class KryoSerializer extends JSerializer {

  /** Akka's serializer id for this serializer; part of every persisted event, never change it. */
  public static final int IDENTIFIER = 7201;

  /** Outputs that grew beyond this are dropped rather than pooled, so one huge message does not
   * pin its buffer forever. */
  private static final int MAX_POOLED_OUTPUT = 64 * 1024;

  private final ExtendedActorSystem system;
  private final WireRegistry registry;
  // Akka calls serializers from many threads at once and a Kryo instance is single-threaded.
  private final Pool<Kryo> kryos;
  private final Pool<Output> outputs;

  public KryoSerializer(ExtendedActorSystem system) {
    this.system = system;
    // Loaded here so that duplicate ids fail when Akka builds its serializers, not mid-traffic.
    this.registry = WireRegistry.load(system.dynamicAccess().classLoader());
    int capacity = 4 * Runtime.getRuntime().availableProcessors();
    this.kryos = new Pool<>(true, false, capacity) {
      @Override
      protected Kryo create() {
        return newKryo();
      }
    };
    this.outputs = new Pool<>(true, false, capacity) {
      @Override
      protected Output create() {
        return new Output(1024, -1);
      }
    };
  }

  public WireRegistry registry() {
    return registry;
  }

  @Override
  public int identifier() {
    return IDENTIFIER;
  }

  @Override
  public boolean includeManifest() {
    return false;
  }

  @Override
  public byte[] toBinary(Object message) {
    Kryo kryo = kryos.obtain();
    Output output = outputs.obtain();
    // On failure neither goes back to the pool: a Kryo that threw mid-graph may keep state.
    kryo.writeClassAndObject(output, message);
    byte[] bytes = output.toBytes();
    kryos.free(kryo);
    if (output.getBuffer().length <= MAX_POOLED_OUTPUT) {
      outputs.free(output);
    }
    return bytes;
  }

  @Override
  public Object fromBinaryJava(byte[] bytes, Class<?> manifest) {
    Kryo kryo = kryos.obtain();
    Object message = kryo.readClassAndObject(new Input(bytes));
    kryos.free(kryo);
    return message;
  }

  private Kryo newKryo() {
    // Built on first use, not in the constructor: the typed view of the system may not exist yet
    // while Akka is still constructing its serializers.
    ActorSystem<Void> typed = Adapter.toTyped(system);
    Kryo kryo = new WireKryo();
    kryo.setRegistrationRequired(true);
    kryo.setReferences(false); // messages are trees; tracking would cost a map lookup per object
    kryo.setClassLoader(system.dynamicAccess().classLoader());
    // For concrete ref classes that a contributor registers without a serializer of its own.
    kryo.addDefaultSerializer(akka.actor.typed.ActorRef.class, new ActorRefSerializers.Typed(typed));
    kryo.addDefaultSerializer(akka.actor.ActorRef.class, new ActorRefSerializers.Classic(typed));
    for (WireRegistry.Registered r : registry.entries()) {
      WireRegistrations.Entry e = r.entry();
      kryo.register(e.type(), serializerFor(kryo, e, typed), e.id());
    }
    return kryo;
  }

  private static Serializer<?> serializerFor(
      Kryo kryo, WireRegistrations.Entry e, ActorSystem<?> typed) {
    if (e.serializer() != null) {
      return e.serializer().create(typed);
    }
    if (e.type().isRecord()) {
      return new RecordSerializer<>(e.type()); // calls the canonical constructor on read
    }
    return kryo.getDefaultSerializer(e.type());
  }

  /** A Kryo whose unregistered-class error names WireRegistry. */
  private static final class WireKryo extends Kryo {
    WireKryo() {
      super(new WireClassResolver(), null);
    }

    @Override
    @SuppressWarnings("rawtypes")
    protected String unregisteredClassMessage(Class type) {
      return "class " + (type == null ? "null" : type.getName())
          + " is not registered in WireRegistry: give it a fixed id in a WireRegistrations"
          + " implementation listed in META-INF/services";
    }
  }

  /**
   * Sends every actor-ref implementation class under the id of the ref type it implements:
   * the concrete classes are Akka internals (ActorRefAdapter, LocalActorRef, RemoteActorRef...),
   * differ between local and remote refs, and are resolved from the path on read anyway.
   */
  private static final class WireClassResolver extends DefaultClassResolver {
    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public Registration getRegistration(Class type) {
      Registration found = super.getRegistration(type);
      if (found != null || type == null) {
        return found;
      }
      if (akka.actor.typed.ActorRef.class.isAssignableFrom(type)) {
        found = super.getRegistration(akka.actor.typed.ActorRef.class);
      } else if (akka.actor.ActorRef.class.isAssignableFrom(type)) {
        found = super.getRegistration(akka.actor.ActorRef.class);
      }
      if (found != null) {
        classToRegistration.put(type, found); // remembered: the next lookup is a plain hit
      }
      return found;
    }
  }
}

package io.rackfabric.fabric.kryo;

import akka.actor.ExtendedActorSystem;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorRefResolver;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import akka.serialization.Serialization;
import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;

/**
 * Actor references travel as their serialized path (with address) and are resolved against the
 * receiving system, the way Akka's own serializers do it: the implementation object of a local
 * ref means nothing in another JVM.
 */
final class ActorRefSerializers {

  private ActorRefSerializers() {}

  /** Typed refs, through {@link ActorRefResolver}. */
  static final class Typed extends Serializer<ActorRef<?>> {
    private final ActorSystem<?> system;

    Typed(ActorSystem<?> system) {
      super(false, true);
      this.system = system;
    }

    @Override
    public void write(Kryo kryo, Output output, ActorRef<?> ref) {
      // Looked up per call (a map lookup): the extension may not exist yet when Kryo is built.
      output.writeString(ActorRefResolver.get(system).toSerializationFormat(ref));
    }

    @Override
    public ActorRef<?> read(Kryo kryo, Input input, Class<? extends ActorRef<?>> type) {
      return ActorRefResolver.get(system).resolveActorRef(input.readString());
    }
  }

  /** Classic refs, through the provider; {@code serializedActorPath} picks the right address. */
  static final class Classic extends Serializer<akka.actor.ActorRef> {
    private final ExtendedActorSystem system;

    Classic(ActorSystem<?> system) {
      super(false, true);
      this.system = (ExtendedActorSystem) Adapter.toClassic(system);
    }

    @Override
    public void write(Kryo kryo, Output output, akka.actor.ActorRef ref) {
      output.writeString(Serialization.serializedActorPath(ref));
    }

    @Override
    public akka.actor.ActorRef read(
        Kryo kryo, Input input, Class<? extends akka.actor.ActorRef> type) {
      return system.provider().resolveActorRef(input.readString());
    }
  }
}

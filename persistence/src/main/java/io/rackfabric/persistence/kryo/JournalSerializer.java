package io.rackfabric.persistence.kryo;

import akka.actor.ExtendedActorSystem;
import akka.serialization.SerializerWithStringManifest;
import io.rackfabric.fabric.kryo.WireRegistry;
import io.rackfabric.persistence.controller.ControllerSnapshot;
import io.rackfabric.persistence.controller.ControllerState;
import io.rackfabric.persistence.wire.Journaled;

/**
 * The Akka serializer for {@link Journaled} objects (bound in reference.conf as {@code
 * rackfabric-journal}): events and the controller state as snapshot. The manifest names the wire
 * id and schema version ({@code 1000:v1}); the bytes are {@link VersionedCodec}'s. The state is
 * written in its {@link ControllerSnapshot} form and read back as a {@link ControllerState}.
 */
public final class JournalSerializer extends SerializerWithStringManifest {

  /** Akka's serializer id; stored with every journal row, never change it. */
  public static final int IDENTIFIER = 7210;

  private final VersionedCodec codec;

  public JournalSerializer(ExtendedActorSystem system) {
    this.codec = new VersionedCodec(WireRegistry.load(system.dynamicAccess().classLoader()));
  }

  @Override
  public int identifier() {
    return IDENTIFIER;
  }

  @Override
  public String manifest(Object o) {
    return codec.manifest(o instanceof ControllerState ? ControllerSnapshot.class : o.getClass());
  }

  @Override
  public byte[] toBinary(Object o) {
    return codec.write(o instanceof ControllerState s ? s.toSnapshot() : o);
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    return decode(codec, bytes, manifest);
  }

  /**
   * What {@link #fromBinary} returns, without an actor system: the replay debugger reads journal
   * rows through plain JDBC and decodes them here.
   */
  public static Object decode(VersionedCodec codec, byte[] bytes, String manifest) {
    Object value = codec.read(bytes, manifest);
    return value instanceof ControllerSnapshot s ? ControllerState.fromSnapshot(s) : value;
  }
}

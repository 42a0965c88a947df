package io.rackfabric.persistence.kryo;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.rackfabric.persistence.controller.ControllerSnapshot;
import io.rackfabric.persistence.controller.ControllerState;

/** Carries a {@link ControllerState} inside a Kryo message (a query's reply) as its snapshot bytes. */
final class ControllerStateKryo extends Serializer<ControllerState> {

  ControllerStateKryo() {
    super(false, true);
  }

  @Override
  public void write(Kryo kryo, Output output, ControllerState state) {
    byte[] bytes = VersionedCodec.shared().write(state.toSnapshot());
    output.writeVarInt(bytes.length, true);
    output.writeBytes(bytes);
  }

  @Override
  public ControllerState read(Kryo kryo, Input input, Class<? extends ControllerState> type) {
    byte[] bytes = input.readBytes(input.readVarInt(true));
    VersionedCodec codec = VersionedCodec.shared();
    return ControllerState.fromSnapshot(
        (ControllerSnapshot) codec.read(bytes, codec.manifest(ControllerSnapshot.class)));
  }
}

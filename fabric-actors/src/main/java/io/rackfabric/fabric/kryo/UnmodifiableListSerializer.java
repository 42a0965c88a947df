package io.rackfabric.fabric.kryo;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Any {@link List} as its size and elements; read back as an unmodifiable list. Needed because
 * {@code List.copyOf} returns JDK-internal classes without a constructor Kryo could call, and
 * because the domain records treat their lists as immutable anyway.
 */
final class UnmodifiableListSerializer extends Serializer<List<?>> {

  @Override
  public void write(Kryo kryo, Output output, List<?> list) {
    output.writeVarInt(list.size(), true);
    for (Object element : list) {
      kryo.writeClassAndObject(output, element);
    }
  }

  @Override
  public List<?> read(Kryo kryo, Input input, Class<? extends List<?>> type) {
    int size = input.readVarInt(true);
    // Every element takes at least one byte: reject a corrupt size before allocating for it.
    if (input.getInputStream() == null && size > input.limit() - input.position()) {
      throw new KryoException(
          "list size=" + size + " exceeds the " + (input.limit() - input.position())
              + " bytes left");
    }
    Object[] elements = new Object[size];
    boolean hasNull = false;
    for (int i = 0; i < size; i++) {
      elements[i] = kryo.readClassAndObject(input);
      hasNull |= elements[i] == null;
    }
    // List.of rejects nulls; Stream.toList() and ArrayList may carry them.
    return hasNull ? Collections.unmodifiableList(Arrays.asList(elements)) : List.of(elements);
  }
}

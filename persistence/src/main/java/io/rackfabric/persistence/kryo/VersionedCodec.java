package io.rackfabric.persistence.kryo;

import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.rackfabric.fabric.kryo.WireRegistry;
import io.rackfabric.persistence.wire.SchemaVersion;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The journal's byte format: self-describing and tolerant of schema change. A record is written
 * as its fixed wire id and its components by name, each value tagged with its kind, so that
 * bytes written before a record gained a component still read (the new component gets its
 * default: 0, false, an empty list, or null) and a component that was removed is skipped.
 * Enums are written by name, not ordinal, so constants may be reordered or added.
 *
 * <p>Kryo's own record serializer is positional and would misread such bytes; this codec only
 * borrows Kryo's varint and string encoding. Values may be null, booleans, ints, longs, strings,
 * byte arrays, enums and records registered in the {@link WireRegistry}, and lists of them.
 */
public final class VersionedCodec {

  private static final byte NULL = 0;
  private static final byte FALSE = 1;
  private static final byte TRUE = 2;
  private static final byte INT = 3;
  private static final byte LONG = 4;
  private static final byte STRING = 5;
  private static final byte ENUM = 6;
  private static final byte RECORD = 7;
  private static final byte LIST = 8;
  private static final byte BYTES = 9;

  private static volatile VersionedCodec shared;

  private final Map<Class<?>, Integer> ids = new HashMap<>();
  private final Map<Integer, Class<?>> types = new HashMap<>();
  private final Map<Class<?>, Constructor<?>> constructors = new ConcurrentHashMap<>();

  public VersionedCodec(WireRegistry registry) {
    for (WireRegistry.Registered r : registry.entries()) {
      ids.put(r.entry().type(), r.entry().id());
      types.put(r.entry().id(), r.entry().type());
    }
  }

  /** Over every registration visible to this module's class loader, built once. */
  public static VersionedCodec shared() {
    VersionedCodec c = shared;
    if (c == null) {
      synchronized (VersionedCodec.class) {
        c = shared;
        if (c == null) {
          c = new VersionedCodec(WireRegistry.load(VersionedCodec.class.getClassLoader()));
          shared = c;
        }
      }
    }
    return c;
  }

  /** The version a record type is written at now (its {@link SchemaVersion}, else 1). */
  public static int versionOf(Class<?> type) {
    SchemaVersion v = type.getAnnotation(SchemaVersion.class);
    return v == null ? 1 : v.value();
  }

  /** {@code <wire id>:v<version>}, e.g. {@code 1000:v1}: ids are permanent, class names are not. */
  public String manifest(Class<?> recordType) {
    return idOf(recordType) + ":v" + versionOf(recordType);
  }

  public byte[] write(Object value) {
    Output out = new Output(256, -1);
    writeValue(out, value);
    return out.toBytes();
  }

  /** Reads bytes written under {@code manifest}; fails naming the manifest when they cannot be. */
  public Object read(byte[] bytes, String manifest) {
    int colon = manifest.indexOf(":v");
    int id;
    int version;
    try {
      id = Integer.parseInt(manifest.substring(0, colon));
      version = Integer.parseInt(manifest.substring(colon + 2));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("manifest=" + manifest + " is not <wire id>:v<version>");
    }
    Class<?> type = types.get(id);
    if (type == null) {
      throw new IllegalArgumentException("manifest=" + manifest + ": wire id " + id + " is not registered");
    }
    if (version > versionOf(type)) {
      throw new IllegalArgumentException("manifest=" + manifest + ": written at version " + version
          + " of " + type.getName() + ", newer than this code's version " + versionOf(type));
    }
    Object value = readValue(new Input(bytes));
    if (!type.isInstance(value)) {
      throw new IllegalArgumentException("manifest=" + manifest + " names " + type.getName()
          + " but the bytes hold " + (value == null ? "null" : value.getClass().getName()));
    }
    return value;
  }

  private int idOf(Class<?> type) {
    Integer id = ids.get(type);
    if (id == null) {
      throw new IllegalArgumentException("class " + type.getName()
          + " has no wire id: register it in a WireRegistrations");
    }
    return id;
  }

  private void writeValue(Output out, Object v) {
    if (v == null) {
      out.writeByte(NULL);
    } else if (v instanceof Boolean b) {
      out.writeByte(b ? TRUE : FALSE);
    } else if (v instanceof Integer i) {
      out.writeByte(INT);
      out.writeVarInt(i, false);
    } else if (v instanceof Long l) {
      out.writeByte(LONG);
      out.writeVarLong(l, false);
    } else if (v instanceof String s) {
      out.writeByte(STRING);
      out.writeString(s);
    } else if (v instanceof byte[] b) {
      out.writeByte(BYTES);
      out.writeVarInt(b.length, true);
      out.writeBytes(b);
    } else if (v instanceof Enum<?> e) {
      out.writeByte(ENUM);
      out.writeVarInt(idOf(e.getDeclaringClass()), true);
      out.writeString(e.name());
    } else if (v instanceof List<?> list) {
      out.writeByte(LIST);
      out.writeVarInt(list.size(), true);
      list.forEach(element -> writeValue(out, element));
    } else if (v.getClass().isRecord()) {
      out.writeByte(RECORD);
      out.writeVarInt(idOf(v.getClass()), true);
      RecordComponent[] components = v.getClass().getRecordComponents();
      out.writeVarInt(components.length, true);
      for (RecordComponent c : components) {
        out.writeString(c.getName());
        try {
          writeValue(out, c.getAccessor().invoke(v));
        } catch (IllegalAccessException | InvocationTargetException e) {
          throw new IllegalStateException("cannot read " + c.getName() + " of " + v.getClass().getName(), e);
        }
      }
    } else {
      throw new IllegalArgumentException("cannot journal a " + v.getClass().getName()
          + ": only records, enums, lists, strings, ints, longs, booleans and byte arrays");
    }
  }

  private Object readValue(Input in) {
    byte tag = in.readByte();
    switch (tag) {
      case NULL:
        return null;
      case FALSE:
        return false;
      case TRUE:
        return true;
      case INT:
        return in.readVarInt(false);
      case LONG:
        return in.readVarLong(false);
      case STRING:
        return in.readString();
      case BYTES:
        return in.readBytes(in.readVarInt(true));
      case ENUM:
        return readEnum(in);
      case LIST: {
        int n = in.readVarInt(true);
        List<Object> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          list.add(readValue(in));
        }
        return list;
      }
      case RECORD:
        return readRecord(in);
      default:
        throw new IllegalArgumentException("tag=" + tag + " at byte " + (in.position() - 1)
            + " is not a value tag: corrupt or foreign bytes");
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private Object readEnum(Input in) {
    int id = in.readVarInt(true);
    String name = in.readString();
    Class<?> type = types.get(id);
    if (type == null || !type.isEnum()) {
      throw new IllegalArgumentException("enum wire id " + id + " (constant " + name + ") is not a registered enum");
    }
    try {
      return Enum.valueOf((Class) type, name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("constant=" + name + " is not in " + type.getName(), e);
    }
  }

  private Object readRecord(Input in) {
    int id = in.readVarInt(true);
    Class<?> type = types.get(id);
    if (type == null || !type.isRecord()) {
      throw new IllegalArgumentException("record wire id " + id + " is not a registered record");
    }
    int n = in.readVarInt(true);
    Map<String, Object> written = new HashMap<>();
    for (int i = 0; i < n; i++) {
      String name = in.readString();
      written.put(name, readValue(in)); // a component the record no longer has is read and dropped
    }
    RecordComponent[] components = type.getRecordComponents();
    Object[] args = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      Class<?> ctype = components[i].getType();
      args[i] = written.containsKey(components[i].getName())
          ? adapt(written.get(components[i].getName()), ctype, type, components[i].getName())
          : defaultOf(ctype);
    }
    try {
      return constructor(type).newInstance(args);
    } catch (InvocationTargetException e) {
      throw new IllegalArgumentException("bytes of " + type.getName() + " rejected by its constructor: "
          + e.getCause().getMessage(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot construct " + type.getName(), e);
    }
  }

  /** Widens an int written before a component became a long; anything else must already fit. */
  private static Object adapt(Object value, Class<?> target, Class<?> owner, String name) {
    if ((target == long.class || target == Long.class) && value instanceof Integer i) {
      return i.longValue();
    }
    if (value == null && target.isPrimitive()) {
      return defaultOf(target);
    }
    if (value != null && !box(target).isInstance(value)) {
      throw new IllegalArgumentException(owner.getName() + "." + name + " is a " + target.getName()
          + " but the bytes hold a " + value.getClass().getName());
    }
    return value;
  }

  private static Object defaultOf(Class<?> type) {
    if (type == long.class) {
      return 0L;
    } else if (type == int.class) {
      return 0;
    } else if (type == boolean.class) {
      return false;
    } else if (type == List.class) {
      return List.of();
    }
    return null;
  }

  private static Class<?> box(Class<?> type) {
    if (type == long.class) {
      return Long.class;
    } else if (type == int.class) {
      return Integer.class;
    } else if (type == boolean.class) {
      return Boolean.class;
    }
    return type;
  }

  private Constructor<?> constructor(Class<?> type) {
    return constructors.computeIfAbsent(type, t -> {
      Class<?>[] params = Arrays.stream(t.getRecordComponents())
          .map(RecordComponent::getType).toArray(Class<?>[]::new);
      try {
        Constructor<?> c = t.getDeclaredConstructor(params);
        c.setAccessible(true);
        return c;
      } catch (NoSuchMethodException e) {
        throw new IllegalStateException("record " + t.getName() + " has no canonical constructor", e);
      }
    });
  }
}

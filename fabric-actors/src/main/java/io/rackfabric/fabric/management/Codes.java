package io.rackfabric.fabric.management;

/** Enum constants as register fields: a field holds the constant's ordinal. */
final class Codes {

  private Codes() {}

  /** The constant {@code code} names, or an exception naming {@code what} and the value. */
  static <E extends Enum<E>> E decode(E[] values, int code, String what) {
    if (code < 0 || code >= values.length) {
      throw new IllegalArgumentException(what + " code=" + code + " not in [0," + (values.length - 1) + "]");
    }
    return values[code];
  }
}

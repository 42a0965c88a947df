package io.rackfabric.loadtests.scenario.language;

/**
 * One parameter a fault, invariant or figure kind takes besides the common keys.
 *
 * @param dflt the value when the key is absent (of the type's Java type); null with {@code
 *     required}, or for an optional parameter that stays absent
 * @param doc one line for the README and {@code rack run --kinds}
 */
public record Param(String name, ParamType type, boolean required, Object dflt, String doc) {

  public static Param required(String name, ParamType type, String doc) {
    return new Param(name, type, true, null, doc);
  }

  public static Param optional(String name, ParamType type, Object dflt, String doc) {
    return new Param(name, type, false, dflt, doc);
  }
}

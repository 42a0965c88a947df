package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.language.Network;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.scenario.language.ScenarioKind.Reporter;
import java.util.Locale;

/** What the faults on the network between node JVMs share: they need namespaces, and rates. */
final class NetworkFaults {

  private NetworkFaults() {}

  /** Reports a problem unless the scenario's node JVMs run in network namespaces. */
  static void checkNamespaces(String kind, ScenarioContext context, Reporter report) {
    if (context.multiJvm() == null || context.multiJvm().network() != Network.NAMESPACES) {
      report.problem("kind", kind + " acts on the network between node JVMs and needs them in network namespaces:"
          + " add multi-jvm { network = namespaces } (on loopback there is nothing to cut)");
    }
  }

  /**
   * A fraction from {@code "1%"} or {@code "0.01"}.
   *
   * @throws IllegalArgumentException naming the value when it is not a number in [0, 1]
   */
  static double fraction(String name, String text) {
    String t = text.trim();
    double v;
    try {
      v = t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1).trim()) / 100 : Double.parseDouble(t);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + "=" + text + " is not a number such as 0.01 or \"1%\"");
    }
    if (!(v >= 0 && v <= 1)) {
      throw new IllegalArgumentException(name + "=" + text + " not in [0, 1]");
    }
    return v;
  }

  /**
   * Bits per second from {@code "10mbit"}, {@code "500kbit"}, {@code "1gbit"} or {@code "9600bit"}
   * (tc's units, decimal).
   *
   * @throws IllegalArgumentException naming the value when it is not such a rate or not positive
   */
  static long bitsPerSecond(String name, String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    long unit;
    String number;
    if (t.endsWith("gbit")) {
      unit = 1_000_000_000L;
      number = t.substring(0, t.length() - 4);
    } else if (t.endsWith("mbit")) {
      unit = 1_000_000L;
      number = t.substring(0, t.length() - 4);
    } else if (t.endsWith("kbit")) {
      unit = 1_000L;
      number = t.substring(0, t.length() - 4);
    } else if (t.endsWith("bit")) {
      unit = 1;
      number = t.substring(0, t.length() - 3);
    } else {
      throw new IllegalArgumentException(name + "=" + text + " is not a rate such as \"10mbit\" (bit, kbit, mbit, gbit)");
    }
    double v;
    try {
      v = Double.parseDouble(number.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + "=" + text + " is not a rate such as \"10mbit\" (bit, kbit, mbit, gbit)");
    }
    long bits = Math.round(v * unit);
    if (bits < 8) {
      throw new IllegalArgumentException(name + "=" + text + " is below 8bit per second");
    }
    return bits;
  }
}

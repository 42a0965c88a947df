package io.rackfabric.loadtests.report;

import java.util.LinkedHashMap;
import java.util.Map;

/** What ran a measurement, recorded with every result. */
public final class Machine {

  private Machine() {}

  public static Map<String, Object> describe() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("cores", Runtime.getRuntime().availableProcessors());
    m.put("max_heap_mib", Runtime.getRuntime().maxMemory() >> 20);
    m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
    return m;
  }
}

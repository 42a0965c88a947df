package io.rackfabric.host.vm;

import com.typesafe.config.Config;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything under {@code rackfabric.host.vm}, read once and validated.
 *
 * @param lenderHandlerNs model time from a lent device's interrupt at the lender to its handler's
 *     write toward the borrower
 * @param guestInjectionNs model time from the borrower's notification to the guest seeing it
 */
public record VmSettings(long lenderHandlerNs, long guestInjectionNs) {

  public VmSettings {
    List<String> errors = new ArrayList<>();
    if (lenderHandlerNs < 0) {
      errors.add("lender-handler-latency=" + lenderHandlerNs + "ns is negative");
    }
    if (guestInjectionNs < 0) {
      errors.add("guest-injection-latency=" + guestInjectionNs + "ns is negative");
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException("rackfabric.host.vm: " + String.join("; ", errors));
    }
  }

  public static VmSettings create(Config root) {
    Config c = root.getConfig("rackfabric.host.vm");
    return new VmSettings(c.getDuration("lender-handler-latency").toNanos(),
        c.getDuration("guest-injection-latency").toNanos());
  }

  /**
   * From the interrupt landing at the lender to the forwarded write leaving it. The guest's
   * injection happens after the write reaches the borrower; it is waited before the write
   * instead, which gives the guest the same time: nothing on the borrower's side acts in between.
   */
  public long forwardDelayNs() {
    return lenderHandlerNs + guestInjectionNs;
  }
}

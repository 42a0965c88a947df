package io.rackfabric.host.controlplane;

import com.typesafe.config.Config;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code rackfabric.host.controlplane.client}, read once (see reference.conf): how a host's
 * control-plane driver finds the master again after a take-over. Wall time free of the kernel,
 * model time where the driver runs under it ({@link ModelTimeTransport}).
 *
 * @param attemptTimeout how long one attempt waits for an answer before the next host is tried
 * @param retryDelay the pause before trying another host after NOT_MASTER, OVERLOADED or
 *     NOT_REPLICATED
 * @param giveUp how long a request may stay unanswered in all before it is reported as given up
 * @param loanDmaCheck whether the host's IOMMU checks a borrowed device's DMA against the loan's
 *     mappings and MSI path ({@link LoanDmaPages}; on in reference.conf)
 */
public record ClientSettings(Duration attemptTimeout, Duration retryDelay, Duration giveUp, boolean loanDmaCheck) {

  /** Settings that leave a borrowed device's DMA unchecked. */
  public ClientSettings(Duration attemptTimeout, Duration retryDelay, Duration giveUp) {
    this(attemptTimeout, retryDelay, giveUp, false);
  }

  public ClientSettings {
    List<String> errors = new ArrayList<>();
    if (attemptTimeout == null || attemptTimeout.isNegative() || attemptTimeout.isZero()) {
      errors.add("attempt-timeout=" + attemptTimeout + " must be positive");
    }
    if (retryDelay == null || retryDelay.isNegative()) {
      errors.add("retry-delay=" + retryDelay + " must not be negative");
    }
    if (giveUp == null || attemptTimeout != null && giveUp.compareTo(attemptTimeout) < 0) {
      errors.add("give-up=" + giveUp + " must be at least attempt-timeout=" + attemptTimeout);
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException("rackfabric.host.controlplane.client: " + String.join("; ", errors));
    }
  }

  public static ClientSettings create(Config root) {
    Config c = root.getConfig("rackfabric.host.controlplane.client");
    return new ClientSettings(c.getDuration("attempt-timeout"), c.getDuration("retry-delay"),
        c.getDuration("give-up"), c.getBoolean("loan-dma-check"));
  }
}

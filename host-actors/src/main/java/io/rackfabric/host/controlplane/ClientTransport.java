package io.rackfabric.host.controlplane;

import io.rackfabric.persistence.controller.Controller;

/**
 * How a host's control-plane driver ({@link ControlPlaneClient}) reaches the management hosts and
 * keeps its timers: on the wall clock, asking the hosts' actors ({@link WallTransport}); or in
 * model time, as the guest of its host's endpoint, its requests and their answers on guest
 * channels and its timers wakes of the endpoint ({@link ModelTimeTransport}).
 */
interface ClientTransport {

  /** The clock the driver's give-up is measured on, ns: model time, or the wall clock. */
  long clock();

  /** Sends attempt {@code a} of {@code request} to its host; its time-out is set as well. */
  void send(RequestQueue.Attempt a, Controller.Request request);

  /** The open attempt was answered: its time-out and a pending retry are off. */
  void answered();

  /** The next attempt goes after the retry delay. */
  void retryAfterDelay();

  /** The page plan's next request is due at model time {@code at}, {@code delayNs} from now. */
  void nextPage(long at, long delayNs);

  /** The page plan is done. */
  void stopPages();

  /**
   * A management host was started again (its JVM died): {@code hosts} names the same hosts in the
   * same order, the restarted one at its new address; later attempts go there.
   */
  void useHosts(ControlPlaneClient.UseHosts hosts);
}

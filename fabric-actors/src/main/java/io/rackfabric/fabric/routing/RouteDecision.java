package io.rackfabric.fabric.routing;

/** What a switch does with a TLP that entered through one of its ports. */
public sealed interface RouteDecision {

  /**
   * Forward to one egress port. {@code why} is written only when explaining ({@code rack route},
   * {@link SwitchRouter#explain}); on the per-TLP path it is null.
   */
  record Forward(int port, String why) implements RouteDecision {}

  /** Replicate a posted write to these ports (never back out the ingress port). */
  record Multicast(int[] ports, int group) implements RouteDecision {}

  /** The TLP addresses a port's own configuration space (or an NTB's link endpoint). */
  record LocalConfig(int port) implements RouteDecision {}

  /**
   * Nothing claims it: a non-posted request gets an Unsupported Request completion, a posted one
   * is dropped and counted, an unroutable completion is dropped and counted.
   */
  record Unsupported(String why) implements RouteDecision {}

  /** Dropped without an answer, as PCIe requires (config requests from below, Multi-peer). */
  record SilentDrop(String why) implements RouteDecision {}
}

package io.rackfabric.loadtests.harness;

/**
 * Network namespaces cannot be made here (not root, no {@code ip}, a kernel without veth or the
 * qdisc a fault needs). A run that asked for them refuses rather than run without its partition.
 */
public final class NetnsUnavailableException extends Exception {

  public NetnsUnavailableException(String message) {
    super(message);
  }
}

package io.rackfabric.cluster.lending;

/** A loan the topology cannot carry; the message names the device, the borrower and what is missing. */
public final class LoanPlanException extends RuntimeException {

  public LoanPlanException(String message) {
    super(message);
  }
}

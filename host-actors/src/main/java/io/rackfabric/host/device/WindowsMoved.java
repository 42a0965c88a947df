package io.rackfabric.host.device;

import akka.actor.NoSerializationVerificationNeeded;

/**
 * A device driver's answer to a move of its device's windows (its loan followed the borrower's
 * link fail-over): {@code rungAgain} names the work in flight it issued again through the new
 * windows ("" when none was), {@code error} why it could not follow the move ("" when it did).
 * The driver's own result holds the move in its terms (a GPU's copy, a disk's read).
 */
public record WindowsMoved(String driver, String rungAgain, String error) implements NoSerializationVerificationNeeded {

  public static WindowsMoved refused(String driver, String error) {
    return new WindowsMoved(driver, "", error);
  }
}

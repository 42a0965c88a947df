package io.rackfabric.persistence.replay;

/**
 * Bad input to the replay debugger: a journal that is missing, in use, corrupt or foreign, or a
 * sequence number or id it does not hold. The message is one line naming the path or value and
 * the reason, fit to show the user as it is.
 */
public final class ReplayException extends Exception {

  public ReplayException(String message) {
    super(message);
  }
}

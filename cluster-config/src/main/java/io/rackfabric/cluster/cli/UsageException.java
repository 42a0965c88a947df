package io.rackfabric.cluster.cli;

/** Bad command-line input; its message is shown to the user as is, with exit status 2. */
public final class UsageException extends Exception {
  public UsageException(String message) {
    super(message);
  }
}

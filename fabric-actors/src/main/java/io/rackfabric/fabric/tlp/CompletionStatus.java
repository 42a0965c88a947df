package io.rackfabric.fabric.tlp;

/** Completion status field: successful, unsupported request, completer abort, retry status. */
public enum CompletionStatus {
  SUCCESSFUL,
  UNSUPPORTED_REQUEST,
  COMPLETER_ABORT,
  CONFIG_RETRY
}

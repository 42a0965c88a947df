package io.rackfabric.fabric.management;

/** What became of a PI-4 write (which has no response, AS-FM section 3.2; the device counts). */
public enum WriteOutcome {
  APPLIED,
  /** It touched a read-only field: ignored and counted. */
  READ_ONLY,
  /** No register there, or a malformed write: ignored and counted. */
  NO_SUCH_FIELD
}

package io.rackfabric.fabric.management;

/** What became of a PI-4 write (which has no response, AS-FM section 3.2; the device counts). */
public enum WriteOutcome {
  APPLIED,
  /** It touched a read-only field: ignored and counted. */
  READ_ONLY,
  /** A structure's entry not written whole, or with a value out of range (a path table's): ignored and counted. */
  MALFORMED,
  /** No register there, or a malformed write: ignored and counted. */
  NO_SUCH_FIELD
}

package io.rackfabric.fabric.management;

/** A run of 32-bit registers in one aperture that one capability structure owns. */
interface ConfigRegion {

  /** Byte offset of the first register in its aperture. */
  long offset();

  /** How many 32-bit registers it holds. */
  int dwords();

  /**
   * Register {@code index} (0 = the one at {@link #offset()}).
   *
   * @param ingressPort the port the read came in through, -1 for a read by the device itself
   */
  int read(int index, int ingressPort);

  /**
   * Whether a write of {@code data} from register {@code index} on makes sense at all (a checked
   * structure's entry written whole); a malformed one is ignored and counted apart. Default: yes.
   */
  default boolean wellFormed(int index, int[] data) {
    return true;
  }

  /** Writes {@code data} from register {@code index} on; false when it is read-only and ignored. */
  boolean write(int index, int[] data);
}

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

  /** Writes {@code data} from register {@code index} on; false when it is read-only and ignored. */
  boolean write(int index, int[] data);
}

package io.rackfabric.fabric.tlp;

/**
 * What a {@link FabricMessage} carries: a packet of a protocol above PCIe (the fabric manager's
 * PI-4 and PI-5 packets), with the size it takes as the message's payload, its traffic class, and
 * its kind as a small number for the wire meters to count by.
 */
public interface MessagePayload {

  /** Kind codes are 0 to MAX_KINDS - 1. */
  int MAX_KINDS = 16;

  /** Bytes it takes as the message's payload. */
  int sizeBytes();

  /** Traffic class 0..7. */
  int trafficClass();

  /** Its kind, 0 to {@link #MAX_KINDS} - 1. */
  int kindCode();
}

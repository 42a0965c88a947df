package io.rackfabric.fabric.rootcomplex;

/**
 * {@code rackfabric.fabric.root-complex}: how a relaying root complex handles peer-to-peer
 * requests it sends back down its link.
 *
 * @param latencyNs model ns a TLP takes to cross the root, each way (translation included)
 * @param readSplit a relayed read goes down again as reads of at most this many bytes
 * @param maxOpenReads reads the root keeps open for relayed requests; the rest wait in order
 */
public record RootRelaySettings(long latencyNs, int readSplit, int maxOpenReads) {

  /** The relay's tags sit above the 256 a requester's 8-bit tags use, inside 10-bit tags. */
  public static final int MAX_OPEN_READS = 1024 - 256;

  public RootRelaySettings {
    if (latencyNs < 0) {
      throw new IllegalArgumentException("root-complex.relay-latency=" + latencyNs + "ns is negative");
    }
    if (readSplit < 16 || readSplit > 4096 || Integer.bitCount(readSplit) != 1) {
      throw new IllegalArgumentException(
          "root-complex.read-split=" + readSplit + " is not a power of two in [16,4096]");
    }
    if (maxOpenReads < 1 || maxOpenReads > MAX_OPEN_READS) {
      throw new IllegalArgumentException(
          "root-complex.max-open-reads=" + maxOpenReads + " not in [1," + MAX_OPEN_READS + "]");
    }
  }
}

package io.rackfabric.fabric.link;

import io.rackfabric.fabric.wire.WireMessage;

/**
 * The physical properties of one link: PCIe generation (sets the per-lane rate and encoding),
 * lane count and propagation delay. Serialization time follows from them.
 */
public record LinkParameters(int generation, int lanes, long propagationNs) implements WireMessage {

  public LinkParameters {
    if (generation < 1 || generation > 5) {
      throw new IllegalArgumentException("generation=" + generation + " not in [1,5]");
    }
    if (lanes != 1 && lanes != 2 && lanes != 4 && lanes != 8 && lanes != 16) {
      throw new IllegalArgumentException("lanes=" + lanes + " not in {1,2,4,8,16}");
    }
    if (propagationNs < 0) {
      throw new IllegalArgumentException("propagationNs=" + propagationNs + " is negative");
    }
  }

  /** Gen3 x4 with 5 ns of cable: the Ladon prototype's CH and NIC links (Ladon section 5.1). */
  public static LinkParameters gen3x4() {
    return new LinkParameters(3, 4, 5);
  }

  /** Raw transfer rate of one lane in GT/s. */
  public double gigaTransfersPerLane() {
    return switch (generation) {
      case 1 -> 2.5;
      case 2 -> 5.0;
      case 3 -> 8.0;
      case 4 -> 16.0;
      default -> 32.0;
    };
  }

  /** 8b/10b up to Gen2, 128b/130b from Gen3 on. */
  public double encodingEfficiency() {
    return generation <= 2 ? 0.8 : 128.0 / 130.0;
  }

  /** Usable bits per nanosecond over all lanes. */
  public double bitsPerNs() {
    return gigaTransfersPerLane() * encodingEfficiency() * lanes;
  }

  /** Time to clock {@code bytes} onto the link, rounded up to whole nanoseconds. */
  public long serializationNs(int bytes) {
    return (long) Math.ceil(bytes * 8.0 / bitsPerNs());
  }

  /** Serialization plus propagation: when the last bit of a frame sent at t arrives. */
  public long flightNs(int bytes) {
    return serializationNs(bytes) + propagationNs;
  }

  /** Bytes of a DLLP, the smallest frame a link carries. */
  public static final int DLLP_BYTES = 8;

  /**
   * The least model time anything takes on this link, a DLLP's flight: the model-time kernel's
   * lookahead of a link ({@link LinkEnd#lookaheadNs}).
   */
  public long leastFlightNs() {
    return flightNs(DLLP_BYTES);
  }
}

package io.rackfabric.fabric.stats;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/** Moving HdrHistograms of model-time latencies between JVMs. */
public final class Latencies {

  private Latencies() {}

  /**
   * Latencies from 1 ns to 100 s of model time with 2 significant digits (values within 1%):
   * small enough to encode cheaply whenever statistics are asked for.
   */
  public static Histogram newHistogram() {
    return new Histogram(1, 100_000_000_000L, 2);
  }

  public static byte[] encode(Histogram h) {
    ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int n = h.encodeIntoCompressedByteBuffer(buffer);
    byte[] out = new byte[n];
    buffer.flip();
    buffer.get(out);
    return out;
  }

  public static Histogram decode(byte[] bytes) {
    try {
      return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
    } catch (DataFormatException e) {
      throw new IllegalArgumentException("not an encoded histogram: " + e.getMessage(), e);
    }
  }
}

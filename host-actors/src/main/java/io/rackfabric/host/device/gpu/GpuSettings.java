package io.rackfabric.host.device.gpu;

import com.typesafe.config.Config;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything under {@code rackfabric.host.gpu}, read once and validated. The write side's TLP size
 * is the fabric's {@code max-payload}, not a setting of the device.
 *
 * @param setupNs model time from the doorbell to the copy's first TLP
 * @param maxReadRequest largest read request the engine issues, bytes (PCIe's Max_Read_Request_Size)
 * @param maxOutstandingReads read requests the engine keeps in flight at most
 * @param maxCopyBytes largest LENGTH a doorbell accepts
 */
public record GpuSettings(long setupNs, int maxReadRequest, int maxOutstandingReads, int maxCopyBytes) {

  /** A requester's tags (the endpoint's 8-bit tag field): no more reads can be in flight. */
  public static final int MAX_TAGS = 256;

  public GpuSettings {
    List<String> errors = new ArrayList<>();
    if (setupNs < 0) {
      errors.add("setup-time=" + setupNs + "ns is negative");
    }
    if (maxReadRequest < 128 || maxReadRequest > 4096 || Integer.bitCount(maxReadRequest) != 1) {
      errors.add("max-read-request=" + maxReadRequest + " not in {128,256,512,1024,2048,4096}");
    }
    if (maxOutstandingReads < 1 || maxOutstandingReads > MAX_TAGS) {
      errors.add("max-outstanding-reads=" + maxOutstandingReads + " not in [1," + MAX_TAGS + "]");
    }
    if (maxCopyBytes < 1) {
      errors.add("max-copy-bytes=" + maxCopyBytes + " must be positive");
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException("rackfabric.host.gpu: " + String.join("; ", errors));
    }
  }

  public static GpuSettings create(Config root) {
    Config c = root.getConfig("rackfabric.host.gpu");
    long copyBytes = c.getBytes("max-copy-bytes");
    if (copyBytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("rackfabric.host.gpu: max-copy-bytes=" + copyBytes + " above "
          + Integer.MAX_VALUE + " (LENGTH is a 32-bit register read as a signed size)");
    }
    return new GpuSettings(
        c.getDuration("setup-time").toNanos(),
        c.getInt("max-read-request"),
        c.getInt("max-outstanding-reads"),
        (int) copyBytes);
  }
}

package io.rackfabric.fabric.management;

import java.util.EnumMap;
import java.util.Map;

/** Management packets counted by kind, with their bytes (what discovery reports). */
public final class PacketCounts {

  private final Map<PacketKind, long[]> counts = new EnumMap<>(PacketKind.class);

  public void add(ManagementPacket packet) {
    long[] c = counts.computeIfAbsent(packet.kind(), k -> new long[2]);
    c[0]++;
    c[1] += packet.sizeBytes();
  }

  public long count(PacketKind kind) {
    return counts.getOrDefault(kind, new long[2])[0];
  }

  public long bytes(PacketKind kind) {
    return counts.getOrDefault(kind, new long[2])[1];
  }

  public long totalCount() {
    return counts.values().stream().mapToLong(c -> c[0]).sum();
  }

  public long totalBytes() {
    return counts.values().stream().mapToLong(c -> c[1]).sum();
  }
}

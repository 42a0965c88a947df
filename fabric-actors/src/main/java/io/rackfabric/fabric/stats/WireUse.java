package io.rackfabric.fabric.stats;

import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.WireMeter;
import io.rackfabric.fabric.management.PacketKind;
import io.rackfabric.fabric.wire.WireMessage;

/**
 * What a link end put on its wire (see {@link WireMeter}): in all, and inside the run's meter
 * window [{@code from}, {@code to}) of model ns (none when to <= from,
 * {@code rackfabric.fabric.wire-meter}).
 *
 * @param tlps TLPs sent
 * @param bytes their bytes on the wire (header, payload, framing)
 * @param windowBytes bytes on the wire inside the window, a straddling TLP by its share
 * @param windowBusyNs wire time inside the window, model ns
 * @param bitsPerNs the link's rate: what it could carry at most (after line encoding)
 * @param management the management packets among the TLPs, by kind ({@link PacketKind} ordinal)
 */
public record WireUse(long tlps, long bytes, long from, long to, double windowBytes, long windowBusyNs,
    double bitsPerNs, long[] management) implements WireMessage {

  public static final WireUse NONE = new WireUse(0, 0, 0, 0, 0, 0, 0);

  public WireUse {
    management = management == null ? new long[io.rackfabric.fabric.tlp.MessagePayload.MAX_KINDS] : management.clone();
  }

  /** Wire use with no management packets. */
  public WireUse(long tlps, long bytes, long from, long to, double windowBytes, long windowBusyNs, double bitsPerNs) {
    this(tlps, bytes, from, to, windowBytes, windowBusyNs, bitsPerNs, null);
  }

  public static WireUse of(WireMeter m, LinkParameters params) {
    return new WireUse(m.tlps(), m.bytes(), m.from(), m.to(), m.windowBytes(), m.windowBusyNs(), params.bitsPerNs(),
        m.management());
  }

  /** Management packets of {@code kind} this end sent. */
  public long management(PacketKind kind) {
    return management(kind.ordinal());
  }

  /** Management packets of kind code {@code code} sent (see {@code MessagePayload#kindCode}). */
  public long management(int code) {
    return code >= 0 && code < management.length ? management[code] : 0;
  }

  /** Whether a window was metered. */
  public boolean windowed() {
    return to > from;
  }
}

package io.rackfabric.fabric.management;

import io.rackfabric.fabric.link.DataLinkState;

/**
 * One port's record, which the baseline capability's pointer names (AS-FM Fig. 6 and the port
 * information of Fig. 9). Six registers, as Fig. 9 reads them (Request Code 6):
 *
 * <pre>
 * +00h  [19:16] max link speed (PCIe generation)  [13:8] max link width (lanes)  [7:4] virtual switch  [3:0] kind
 * +04h  [22:20] peer link state  [18:16] link state  [11:8] link speed  [5:0] link width
 * +08h  control, the only writable register: [0] activate (1: DL_Active wanted, 0: DL_Protected)
 *       [1] disable link
 * +0Ch-+14h  reserved, read 0
 * </pre>
 *
 * Link states are {@link DataLinkState} ordinals. The control bits are what the fabric manager
 * asks for with a PI-4 write (AS-FM section 2.2); the state the port is in is set by the device's
 * data link layer through {@link #setState}.
 */
final class PortRecord implements ConfigRegion {

  static final int DWORDS = 6;
  static final int CONTROL = 2;
  static final int CONTROL_WRITABLE = 0b11;

  private final PortDescription port;
  private DataLinkState state;
  private DataLinkState peerState;
  private int control;

  PortRecord(PortDescription port) {
    this.port = port;
    this.state = port.state();
    this.peerState = port.peerState();
    this.control = port.state() == DataLinkState.DL_ACTIVE ? 1 : 0;
  }

  @Override
  public long offset() {
    return BaselineCapability.portRecordOffset(port.number());
  }

  @Override
  public int dwords() {
    return DWORDS;
  }

  @Override
  public int read(int index, int ingressPort) {
    return index == CONTROL ? control : info().encode()[index];
  }

  @Override
  public boolean write(int index, int[] data) {
    if (index != CONTROL || data.length != 1) {
      return false;
    }
    if ((data[0] & ~CONTROL_WRITABLE) != 0) {
      return false;
    }
    control = data[0];
    return true;
  }

  void setState(DataLinkState newState, DataLinkState newPeerState) {
    state = newState;
    peerState = newPeerState;
    if (newState == DataLinkState.DL_INACTIVE) {
      control &= ~1; // a port that went down trains to DL_Protected again and waits for a new activation
    }
  }

  int control() {
    return control;
  }

  PortInfo info() {
    int width = port.link() == null ? 0 : port.link().lanes();
    int speed = port.link() == null ? 0 : port.link().generation();
    return new PortInfo(port.kind(), port.virtualSwitch(), width, speed, width, speed, state, peerState);
  }

  /** A port record's read-only registers, decoded. */
  record PortInfo(PortKind kind, int virtualSwitch, int maxWidth, int maxSpeed, int width, int speed,
      DataLinkState state, DataLinkState peerState) {

    int[] encode() {
      return new int[] {
        (maxSpeed << 16) | (maxWidth << 8) | (virtualSwitch << 4) | kind.code(),
        (peerState.ordinal() << 20) | (state.ordinal() << 16) | (speed << 8) | width,
        0, 0, 0, 0
      };
    }

    static PortInfo decode(int[] d) {
      if (d.length != DWORDS) {
        throw new IllegalArgumentException("a port record is " + DWORDS + " registers, got " + d.length);
      }
      return new PortInfo(PortKind.ofCode(d[0] & 0xF), (d[0] >>> 4) & 0xF, (d[0] >>> 8) & 0x3F,
          (d[0] >>> 16) & 0xF, d[1] & 0x3F, (d[1] >>> 8) & 0xF, state((d[1] >>> 16) & 0x7),
          state((d[1] >>> 20) & 0x7));
    }

    private static DataLinkState state(int code) {
      return Codes.decode(DataLinkState.values(), code, "link state");
    }
  }
}

package io.rackfabric.fabric.management;

/**
 * A management packet. Its size in bytes is what it takes on a link: the AS routing header of
 * AS-FM Fig. 2 (two 32-bit rows: 8 bytes) and the packet's own header and data. The paper prints
 * the PI-4 fields (Figs. 7 and 9) but not their widths; those are ours, each stated on its record.
 */
public sealed interface ManagementPacket extends io.rackfabric.fabric.tlp.MessagePayload permits Pi4ReadRequest, Pi4ReadCompletion, Pi4Write, Pi5Event {

  /** The AS routing header: Fig. 2's two 32-bit rows (turn pool, turn pointer, traffic class, PI, CRC). */
  int ROUTE_HEADER_BYTES = 8;

  PacketKind kind();

  /** Its kind's code on a fabric message: the kind's ordinal. */
  @Override
  default int kindCode() {
    return kind().ordinal();
  }

  int sizeBytes();

  /** The route from the fabric manager's endpoint to the device the packet is for or from. */
  Route route();

  /** Traffic class 0..7 (a completion uses its request's, AS-FM section 3.2). */
  int trafficClass();

  static void checkTrafficClass(int trafficClass) {
    if (trafficClass < 0 || trafficClass > 7) {
      throw new IllegalArgumentException("trafficClass=" + trafficClass + " not in [0,7]");
    }
  }

  static void checkTransaction(int transaction) {
    if (transaction < 0 || transaction > Pi4ReadRequest.MAX_TRANSACTION) {
      throw new IllegalArgumentException(
          "transaction=" + transaction + " not in [0," + Pi4ReadRequest.MAX_TRANSACTION + "]");
    }
  }
}

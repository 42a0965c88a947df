package io.rackfabric.fabric.tlp;

import java.util.ArrayList;
import java.util.List;

/**
 * A management packet (PI-4, PI-5: AS-FM section 3.2, {@code management.ManagementPacket}) carried
 * over the PCIe fabric as a vendor-defined message: posted, a 4DW message header, and the whole AS
 * packet (its routing header included, {@link MessagePayload#sizeBytes}) as the payload. It takes the same ports,
 * credits, links and model time as any TLP.
 *
 * <p>It is source-routed: {@code turns} are the egress ports, one per device on the way, the
 * sender's first; {@code pointer} is the turn the next device takes (AS's turn pointer, Fig. 2).
 * Each device it crosses notes the port it came in through in {@code back}, so the device at the
 * end answers along the reverse path ({@link #replyTurns}) without knowing the fabric: what AS
 * gets from turns relative to the ingress port, ours gets from the noted ports.
 *
 * @param originAt the model time the sender sent it (ns)
 */
public record FabricMessage(MessagePayload packet, List<Integer> turns, int pointer, List<Integer> back,
    long originAt) implements Tlp {

  /** A PCIe message header is 4 DW. */
  public static final int HEADER_BYTES = 16;

  public FabricMessage {
    if (packet == null) {
      throw new IllegalArgumentException("a fabric message needs a packet");
    }
    turns = List.copyOf(turns);
    back = List.copyOf(back);
    if (turns.isEmpty()) {
      throw new IllegalArgumentException("a fabric message needs at least its sender's turn, turns=" + turns);
    }
    for (int t : turns) {
      if (t < 0) {
        throw new IllegalArgumentException("turn=" + t + " is negative, turns=" + turns);
      }
    }
    if (pointer < 1 || pointer > turns.size()) {
      throw new IllegalArgumentException("pointer=" + pointer + " not in [1," + turns.size() + "]");
    }
  }

  /** {@code packet} leaving its sender through port {@code turns.get(0)} at model {@code at}. */
  public static FabricMessage send(MessagePayload packet, List<Integer> turns, long at) {
    return new FabricMessage(packet, turns, 1, List.of(), at);
  }

  /** Whether the device that received it is the one it is for. */
  public boolean arrived() {
    return pointer == turns.size();
  }

  /** The port the device that received it sends it on through (when it has not {@link #arrived}). */
  public int nextTurn() {
    return turns.get(pointer);
  }

  /** This message as it leaves a device it came into through {@code ingress}, on its next turn. */
  public FabricMessage passedThrough(int ingress) {
    List<Integer> noted = new ArrayList<>(back);
    noted.add(ingress);
    return new FabricMessage(packet, turns, pointer + 1, noted, originAt);
  }

  /** The way back to its sender from the device it reached through {@code ingress}. */
  public List<Integer> replyTurns(int ingress) {
    List<Integer> reply = new ArrayList<>(back.size() + 1);
    reply.add(ingress);
    for (int i = back.size() - 1; i >= 0; i--) {
      reply.add(back.get(i));
    }
    return reply;
  }

  @Override
  public int requester() {
    return 0;
  }

  @Override
  public int tag() {
    return 0;
  }

  @Override
  public int tc() {
    return packet.trafficClass();
  }

  @Override
  public long seq() {
    return 0;
  }

  @Override
  public TlpClass tlpClass() {
    return TlpClass.POSTED;
  }

  @Override
  public int payloadBytes() {
    return packet.sizeBytes();
  }

  @Override
  public int headerBytes() {
    return HEADER_BYTES;
  }
}

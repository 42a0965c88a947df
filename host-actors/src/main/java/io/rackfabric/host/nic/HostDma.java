package io.rackfabric.host.nic;

import java.util.HashMap;
import java.util.Map;

/**
 * DMA between host memory and the card as {@link McpFirmware}'s loop tracks it: each DMA started
 * under a tag, its job found again by the tag when the engine reports its end, and the one send
 * the loop works on (taken from its port's queue before its DMA starts; a fault can stop the loop
 * in between). A reset forgets them all: a DMA ending after it finds no job.
 */
final class HostDma {

  /** A receive's DMA, card to host: the packet to deliver into the token's buffer, on its stream. */
  record Receive(McpPacket packet, ReceiveToken token, StreamKey stream) {}

  private final McpFirmware.Hardware hardware;
  private final Map<Long, Object> jobs = new HashMap<>();
  private long nextTag;
  private SendToken sending;

  HostDma(McpFirmware.Hardware hardware) {
    this.hardware = hardware;
  }

  /** Whether the loop works on a send (one at a time). */
  boolean sending() {
    return sending != null;
  }

  /** The loop took {@code token} from its port's queue. */
  void take(SendToken token) {
    sending = token;
  }

  /** The taken send's DMA, host to card, starts at {@code at}. */
  void startSend(long at) {
    long tag = nextTag++;
    jobs.put(tag, sending);
    hardware.dma(tag, false, sending.buffer(), sending.length(), at);
  }

  /** The taken send's packet is on the link: the loop may take the next. */
  void sent() {
    sending = null;
  }

  /** A receive's DMA, card to host, starts at {@code at}. */
  void startReceive(Receive receive, long at) {
    long tag = nextTag++;
    jobs.put(tag, receive);
    hardware.dma(tag, true, receive.token().buffer(), receive.packet().length(), at);
  }

  /** The job of the DMA that ended: a {@link SendToken}, a {@link Receive}, or null (forgotten in a reset). */
  Object finish(long tag) {
    return jobs.remove(tag);
  }

  /** The card's memory was lost. */
  void clear() {
    jobs.clear();
    sending = null;
  }
}

package io.rackfabric.fabric.tlp;

import io.rackfabric.fabric.wire.WireMessage;

/**
 * A transaction-layer packet. Besides the PCIe header fields each TLP carries two pieces of
 * emulator metadata: {@code originAt}, the model time (ns) at which its originating request was
 * created, from which one-way latency is measured; and {@code seq}, a per-stream sequence number
 * the endpoints use to count loss, duplication and reordering. Neither influences routing.
 */
public sealed interface Tlp extends WireMessage
    permits MemWrite, MemRead, Completion, ConfigRead, ConfigWrite, ErrorMessage, FabricMessage {

  /** Requester ID (bus/device/function, see {@link Bdf}). */
  int requester();

  int tag();

  /** Traffic class 0..7. */
  int tc();

  long originAt();

  long seq();

  TlpClass tlpClass();

  /** Payload bytes on the wire (0 for requests without data). */
  int payloadBytes();

  /** 3DW or 4DW header: 4DW when a memory address needs more than 32 bits. */
  int headerBytes();
}

package io.rackfabric.fabric.link;

import io.rackfabric.fabric.wire.WireMessage;

/** What travels between the two ends of a link: TLPs and DLLPs. */
public sealed interface LinkFrame extends WireMessage, PortMessage
    permits TlpFrame, InitFc, UpdateFc, PhysicalDown, SequencedTlp, CorruptTlp, AckNak {

  /** Model time (ns) at which the sender started clocking this frame onto the link. */
  long sentAt();
}

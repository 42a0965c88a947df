package io.rackfabric.loadtests.bench;

import io.rackfabric.fabric.wire.WireMessage;

/** The baseline's message: the same payload size the fabric's TLP carries, and nothing else. */
public record BarePayload(long seq, long total, byte[] data)
    implements BareRelay.Command, BareSink.Command, WireMessage {}

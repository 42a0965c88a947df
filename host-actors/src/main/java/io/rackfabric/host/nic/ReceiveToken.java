package io.rackfabric.host.nic;

/** A receive token (FTGM section 3.1): a pinned host buffer a port offers for one message. */
public record ReceiveToken(int port, long buffer, int size) {}

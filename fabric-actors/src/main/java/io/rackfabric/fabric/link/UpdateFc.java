package io.rackfabric.fabric.link;

import io.rackfabric.fabric.credit.FcCredits;

/** UpdateFC DLLP: cumulative credit limits; also the periodic keepalive of an idle link. */
public record UpdateFc(FcCredits limits, long sentAt) implements LinkFrame {}

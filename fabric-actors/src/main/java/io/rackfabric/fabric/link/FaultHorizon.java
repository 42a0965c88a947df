package io.rackfabric.fabric.link;

import io.rackfabric.fabric.wire.WireMessage;

/**
 * A link end's answer to a hold request: from now on it holds every TLP that would start on its
 * wire at or after {@code modelAt} ({@code Long.MAX_VALUE}: nothing held). See
 * {@link LinkEnd#holdFrom}.
 */
public record FaultHorizon(long modelAt) implements WireMessage {}

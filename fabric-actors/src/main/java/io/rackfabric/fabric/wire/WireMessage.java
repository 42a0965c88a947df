package io.rackfabric.fabric.wire;

/**
 * Marker for every class that may cross a JVM boundary or enter a journal. Bound to the Kryo
 * serializer in reference.conf; every implementing class must also be listed in {@link
 * io.rackfabric.fabric.kryo.WireRegistry} with a fixed id, or serialization fails loudly.
 */
public interface WireMessage {}

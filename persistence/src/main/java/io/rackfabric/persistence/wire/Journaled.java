package io.rackfabric.persistence.wire;

import io.rackfabric.fabric.wire.WireMessage;

/**
 * What goes into a journal or snapshot store: bound to the journal serializer
 * ({@code io.rackfabric.persistence.kryo.JournalSerializer}), which writes a
 * versioned manifest and bytes that stay readable after a record gains a component. Being a
 * WireMessage too, the same objects also travel inside other messages through Kryo.
 */
public interface Journaled extends WireMessage {}

package io.rackfabric.fabric.link;

import io.rackfabric.fabric.tlp.Tlp;

/**
 * A TLP with its data link sequence number, sent while the link end's replay is active (see
 * {@link LinkEnd#injectErrors}); a link without errors sends a plain {@link TlpFrame}.
 */
public record SequencedTlp(Tlp tlp, long seq, long sentAt) implements LinkFrame {}

package io.rackfabric.fabric.link;

/**
 * What a port-like actor (switch port, endpoint, and later hosts and NICs) takes in: its own
 * command protocol and the link frames from its partner. Frames are delivered as they are, with
 * no message adapter, because they are the bulk of all traffic: an adapter would allocate two
 * wrappers per TLP per hop. Each actor still offers callers only its narrowed command reference.
 */
public interface PortMessage {}

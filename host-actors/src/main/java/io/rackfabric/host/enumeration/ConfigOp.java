package io.rackfabric.host.enumeration;

import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.tlp.Bdf;

/**
 * One configuration request an {@link Enumerator} wants issued: a read when {@code writeValue} is
 * null, else a write. Type 0 for the root's own bus (bus 0), type 1 beyond it.
 */
public record ConfigOp(int target, int type, int register, Integer writeValue) {

  public boolean isWrite() {
    return writeValue != null;
  }

  /** The root endpoint's command that issues this request. */
  public MemoryEndpoint.ConfigRequest toRequest(ActorRef<MemoryEndpoint.ConfigResult> replyTo) {
    return new MemoryEndpoint.ConfigRequest(target, type, register, writeValue, replyTo);
  }

  @Override
  public String toString() {
    return (isWrite() ? "write " : "read ") + Bdf.format(target) + " type " + type + " reg " + register
        + (isWrite() ? " = 0x" + Integer.toHexString(writeValue) : "");
  }
}

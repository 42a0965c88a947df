package io.rackfabric.host.device;

import akka.actor.NoSerializationVerificationNeeded;

/**
 * A device driver's answer to its device's hot-remove (the controller ended the device's loan):
 * the model time of the surprise removal it declared then, or {@link #NONE} when its plan was over
 * already (nothing was in flight to lose).
 */
public record HotRemoved(String driver, long removedAt) implements NoSerializationVerificationNeeded {

  public static final long NONE = -1;
}

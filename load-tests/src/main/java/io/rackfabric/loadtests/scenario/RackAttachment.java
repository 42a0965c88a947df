package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.api.RunningRack;

/**
 * Something that joins a running rack before traffic starts and leaves it before the rack stops:
 * host software (compute and management host actors), extra watchers. It spawns its actors with
 * {@link RunningRack#system()} and registers them with {@link RunningRack#register} so that
 * {@code stop-actor} faults and invariants can name them.
 */
public interface RackAttachment {

  /** Called once the rack is up (every link trained), before the first request. */
  void attach(RunningRack rack) throws Exception;

  /** Called after the invariants were evaluated, before the rack stops. */
  default void detach(RunningRack rack) throws Exception {}
}

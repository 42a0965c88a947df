package io.rackfabric.loadtests.scenario.language;

/**
 * One invariant the run must satisfy.
 *
 * @param label the kind with the parameters as the file gives them: {@code aer-reported-at
 *     root=mh within=5us}
 * @param where {@code file:line} of the invariant
 */
public record InvariantSpec(String kind, Params params, String label, String where) {}

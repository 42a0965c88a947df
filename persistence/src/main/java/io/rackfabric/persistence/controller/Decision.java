package io.rackfabric.persistence.controller;

import java.util.List;

/**
 * The outcome of validating one operation: the events to persist, or why there are none
 * ({@code error}), or that the request was applied before ({@code alreadyApplied}, with
 * {@code error} saying which): then nothing is persisted and the answer is an acceptance.
 */
public record Decision(List<ControllerEvent> events, String error, boolean alreadyApplied) {

  public Decision {
    events = events == null ? List.of() : List.copyOf(events);
  }

  static Decision accept(ControllerEvent... events) {
    return accept(List.of(events));
  }

  static Decision accept(List<ControllerEvent> events) {
    return new Decision(events, null, false);
  }

  static Decision reject(String error) {
    return new Decision(List.of(), error, false);
  }

  static Decision applied(String detail) {
    return new Decision(List.of(), detail, true);
  }

  public boolean accepted() {
    return error == null;
  }
}

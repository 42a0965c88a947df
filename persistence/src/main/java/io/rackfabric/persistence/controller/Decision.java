package io.rackfabric.persistence.controller;

import java.util.List;

/** The outcome of validating one operation: the events to persist, or why there are none. */
public record Decision(List<ControllerEvent> events, String error) {

  public Decision {
    events = events == null ? List.of() : List.copyOf(events);
  }

  static Decision accept(ControllerEvent... events) {
    return new Decision(List.of(events), null);
  }

  static Decision reject(String error) {
    return new Decision(List.of(), error);
  }

  public boolean accepted() {
    return error == null;
  }
}

package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rackfabric.persistence.controller.Controller;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestChainTest {

  private final List<String> sent = new ArrayList<>();
  private final List<String> refused = new ArrayList<>();
  private final RequestChain chain = new RequestChain((op, page) -> {
    sent.add(name(op));
    return sent.size();
  }, op -> refused.add(name(op)));

  private static Controller.Operation op(String device) {
    return new Controller.ReturnDevice(device, "ch2", 0, null);
  }

  private static String name(Controller.Operation op) {
    return ((Controller.ReturnDevice) op).device();
  }

  @Test
  void shouldSendADependentRequestOnlyOnceTheOneBeforeItWasAccepted() {
    chain.handOver(op("borrow"), false, false);
    chain.handOver(op("map"), false, true);
    assertEquals(List.of("borrow"), sent, "the mapping waits for the borrow's answer");
    assertEquals(1, chain.parked());
    chain.ended(1, true);
    assertEquals(List.of("borrow", "map"), sent);
    assertEquals(List.of(), refused);
  }

  @Test
  void shouldNotSendADependentChainWhenTheFirstIsRefused() {
    chain.handOver(op("borrow"), false, false);
    chain.handOver(op("map"), false, true);
    chain.handOver(op("return"), false, true);
    chain.handOver(op("other"), false, false);
    chain.ended(1, false);
    assertEquals(List.of("map", "return"), refused, "each depends on the one before it, not sent either");
    assertEquals(List.of("borrow", "other"), sent, "an independent one goes, in hand-over order");
  }

  @Test
  void shouldKeepHandOverOrderWhenAnIndependentRequestComesBehindAWaitingOne() {
    chain.handOver(op("borrow"), false, false);
    chain.handOver(op("map"), false, true);
    chain.handOver(op("page"), true, false);
    assertEquals(List.of("borrow"), sent, "the page waits behind the waiting mapping");
    chain.ended(1, true);
    assertEquals(List.of("borrow", "map"), sent, "the page waits for nothing but its turn: queued after the map");
    chain.ended(2, true);
    assertEquals(List.of("borrow", "map", "page"), sent);
  }

  @Test
  void shouldSendADependentRequestAtOnceWhenTheOneBeforeItWasAcceptedAlready() {
    chain.handOver(op("borrow"), false, false);
    chain.ended(1, true);
    chain.handOver(op("map"), false, true);
    assertEquals(List.of("borrow", "map"), sent);
  }
}

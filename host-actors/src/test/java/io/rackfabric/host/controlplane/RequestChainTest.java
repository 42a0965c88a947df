package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.typed.ActorRef;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The chain step by step: who hands over what, which is sent, which answered not sent and why. */
class RequestChainTest {

  private static final ActorTestKit testKit = ActorTestKit.create();

  /** Two requesters of one host's driver: a VM's hypervisor and the host's own loan steps. */
  private final ActorRef<OperationResult> vm = testKit.<OperationResult>createTestProbe().getRef();
  private final ActorRef<OperationResult> host = testKit.<OperationResult>createTestProbe().getRef();

  private final List<String> sent = new ArrayList<>();
  /** The requests answered not sent, each with its reason. */
  private final Map<String, String> notSent = new LinkedHashMap<>();
  private final List<String> answerOrder = new ArrayList<>();
  private final RequestChain chain = new RequestChain((op, page) -> {
    sent.add(name(op));
    return sent.size();
  }, (op, reason) -> {
    notSent.put(name(op), reason);
    answerOrder.add(name(op));
  });

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private static Operation borrow(String device, ActorRef<OperationResult> by) {
    return new Controller.BorrowDevice(device, "ch2", "alpha", 0, 0, 0, 0, by);
  }

  private static Operation map(String device, ActorRef<OperationResult> by) {
    return new Controller.MapDmaBuffer(device, "ch2", 0, 0x1000, 0, by);
  }

  private static Operation giveBack(String device, ActorRef<OperationResult> by) {
    return new Controller.ReturnDevice(device, "ch2", 0, by);
  }

  private static String name(Operation op) {
    if (op instanceof Controller.BorrowDevice b) {
      return "borrow " + b.device();
    }
    if (op instanceof Controller.MapDmaBuffer m) {
      return "map " + m.device();
    }
    return "return " + ((Controller.ReturnDevice) op).device();
  }

  /** Request number {@code seq} (1 for the first sent) was answered. */
  private void answered(long seq, boolean accepted) {
    answerOrder.add(sent.get((int) seq - 1));
    chain.ended(seq, accepted, accepted ? "ACCEPTED" : "REJECTED: device=gpu1 is already lent");
  }

  @Test
  void shouldSendADependentRequestOnlyOnceTheOneItNamesWasAccepted() {
    chain.handOver(borrow("gpu1", vm), false, "b1", null);
    chain.handOver(map("gpu1", vm), false, null, "b1");
    assertEquals(List.of("borrow gpu1"), sent, "the mapping waits for the borrow's answer");
    assertEquals(1, chain.held());
    answered(1, true);
    assertEquals(List.of("borrow gpu1", "map gpu1"), sent);
    assertEquals(Map.of(), notSent);
    assertEquals(0, chain.held());
  }

  @Test
  void shouldKeepTheDependencyWhenAnotherRequesterHandsARequestOverInBetween() {
    chain.handOver(borrow("gpu1", vm), false, "b1", null);
    chain.handOver(borrow("gpu1", host), false, null, null); // the host's own steps, between the VM's two
    chain.handOver(map("gpu1", vm), false, null, "b1");
    assertEquals(List.of("borrow gpu1", "borrow gpu1"), sent, "the other requester's request goes at once");
    answered(1, true);
    assertEquals(List.of("borrow gpu1", "borrow gpu1", "map gpu1"), sent,
        "the mapping follows the VM's borrow, whatever the request handed over just before it");
    answered(2, false);
    assertEquals(Map.of(), notSent, "the host's refused borrow is not the one the mapping depends on");
  }

  @Test
  void shouldNotSendTheMappingWhenTheBorrowBeforeAnotherRequestersRequestIsRefused() {
    chain.handOver(borrow("gpu1", vm), false, "b1", null);
    chain.handOver(borrow("gpu2", host), false, null, null);
    chain.handOver(map("gpu1", vm), false, null, "b1");
    answered(2, true); // the host's request is answered first: it does not release the mapping
    assertEquals(List.of("borrow gpu1", "borrow gpu2"), sent);
    assertEquals(1, chain.held());
    answered(1, false);
    assertEquals(List.of("borrow gpu1", "borrow gpu2"), sent, "the mapping is never sent");
    String reason = notSent.get("map gpu1");
    assertTrue(reason.startsWith(ControlPlaneClient.NOT_SENT), reason);
    assertTrue(reason.contains("'b1'") && reason.contains("device=gpu1 is already lent"),
        "names the borrow and why it was refused: " + reason);
  }

  @Test
  void shouldHoldAReturnThatFollowsAnUnansweredBorrowAndSendItOnceTheBorrowIsAccepted() {
    chain.handOver(borrow("gpu1", vm), false, "b1", null);
    chain.handOver(map("gpu1", vm), false, null, "b1");
    chain.handOver(giveBack("gpu1", vm), false, null, "b1"); // the guest hot-removes before the answer
    assertEquals(List.of("borrow gpu1"), sent);
    assertEquals(2, chain.held());
    answered(1, true);
    assertEquals(List.of("borrow gpu1", "map gpu1", "return gpu1"), sent, "the return is not dropped");
  }

  @Test
  void shouldAnswerAReturnThatFollowsARefusedBorrowNotSent() {
    chain.handOver(borrow("gpu1", vm), false, "b1", null);
    chain.handOver(map("gpu1", vm), false, null, "b1");
    chain.handOver(giveBack("gpu1", vm), false, null, "b1");
    answered(1, false);
    assertEquals(List.of("borrow gpu1"), sent);
    assertEquals(List.of("map gpu1", "return gpu1"), List.copyOf(notSent.keySet()));
    assertEquals(List.of("borrow gpu1", "map gpu1", "return gpu1"), answerOrder,
        "the VM hears its answers in the order it handed its requests over");
  }

  @Test
  void shouldLetAnotherDevicesRequestsPassWhileOneDevicesMappingIsHeld() {
    chain.handOver(borrow("gpu1", vm), false, "b1", null);
    chain.handOver(map("gpu1", vm), false, null, "b1");
    chain.handOver(borrow("gpu2", host), false, "b2", null);
    chain.handOver(map("gpu2", host), false, null, "b2");
    assertEquals(List.of("borrow gpu1", "borrow gpu2"), sent, "gpu2's borrow does not wait behind gpu1's mapping");
    answered(2, true);
    assertEquals(List.of("borrow gpu1", "borrow gpu2", "map gpu2"), sent, "gpu2's mapping follows its own borrow");
    answered(1, true);
    assertEquals(List.of("borrow gpu1", "borrow gpu2", "map gpu2", "map gpu1"), sent);
  }

  @Test
  void shouldKeepARequestersOwnRequestsInHandOverOrderAcrossDevices() {
    chain.handOver(borrow("gpu1", vm), false, "b1", null);
    chain.handOver(map("gpu1", vm), false, null, "b1");
    chain.handOver(borrow("gpu2", vm), false, "b2", null);
    assertEquals(List.of("borrow gpu1"), sent, "the VM's next request waits behind its own held mapping");
    answered(1, true);
    assertEquals(List.of("borrow gpu1", "map gpu1", "borrow gpu2"), sent);
  }

  @Test
  void shouldAnswerNotSentOnlyAfterTheRequestersEarlierRequests() {
    chain.handOver(borrow("gpu1", vm), false, "b1", null);
    answered(1, false);
    chain.handOver(borrow("gpu2", vm), false, null, null);
    chain.handOver(map("gpu1", vm), false, null, "b1"); // names a borrow refused before
    assertEquals(Map.of(), notSent, "not answered ahead of the VM's open borrow of gpu2");
    answered(2, true);
    assertEquals(List.of("borrow gpu1", "borrow gpu2", "map gpu1"), answerOrder);
  }

  @Test
  void shouldSendADependentRequestAtOnceWhenTheOneItNamesWasAcceptedAlready() {
    chain.handOver(borrow("gpu1", vm), false, "b1", null);
    answered(1, true);
    chain.handOver(map("gpu1", vm), false, null, "b1");
    assertEquals(List.of("borrow gpu1", "map gpu1"), sent);
  }

  @Test
  void shouldAnswerNotSentWhenTheNamedRequestWasNeverHandedOverByItsRequester() {
    chain.handOver(borrow("gpu1", host), false, "b1", null); // another requester's label
    chain.handOver(map("gpu1", vm), false, null, "b1");
    assertEquals(List.of("borrow gpu1"), sent);
    String reason = notSent.get("map gpu1");
    assertTrue(reason.contains("'b1'") && reason.contains("had not handed over"), reason);
  }

  @Test
  void shouldNotSendARequestThatDependsOnOneNotSent() {
    chain.handOver(borrow("gpu1", vm), false, "b1", null);
    chain.handOver(map("gpu1", vm), false, "m1", "b1");
    chain.handOver(giveBack("gpu1", vm), false, null, "m1");
    answered(1, false);
    assertEquals(List.of("borrow gpu1"), sent);
    assertTrue(notSent.get("return gpu1").contains("'m1'"), notSent.get("return gpu1"));
  }
}

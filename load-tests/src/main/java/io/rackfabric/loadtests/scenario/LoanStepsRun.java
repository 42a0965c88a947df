package io.rackfabric.loadtests.scenario;

import akka.actor.typed.ActorRef;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.ControlPlaneBootPlan;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.host.controlplane.ControlPlaneClient;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.api.LoanStepResult;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.LoanStep;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.LendableKind;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A scenario's {@code loans} on a running rack: each step is handed at the start to its host's
 * control-plane driver ({@link ControlPlaneClient}) stamped with its model time, so under the
 * kernel it enters the model at that time and the controller's answers are a function of the
 * scenario (the rack is held at the start while the steps are handed over). The driver resends a
 * step across a take-over like any control-plane request; the master's answer is the step's result.
 */
public final class LoanStepsRun {

  private static final Duration ASK = Duration.ofSeconds(10);
  /** A driver learns the hosts once both answered their status; on a loaded machine that takes a while. */
  private static final Duration READY = Duration.ofMinutes(2);

  private record Sent(LoanStep step, long at, CompletableFuture<OperationResult> answer) {}

  private final List<Sent> sent;

  private LoanStepsRun(List<Sent> sent) {
    this.sent = sent;
  }

  /** Hands every step to its host's driver; returns at once. */
  public static LoanStepsRun start(RunningRack rack, List<LoanStep> steps, PrintStream progress) throws Exception {
    long startAt = rack.hostStartModelTime();
    rack.holdModelTime(startAt);
    Map<String, ActorRef<ControlPlaneClient.Command>> clients = new LinkedHashMap<>();
    for (LoanStep s : steps) {
      if (!clients.containsKey(s.host())) {
        var client = Asks.find(rack.system(), ComponentKeys.controlPlaneClient(s.host()), ASK);
        Asks.<ControlPlaneClient.Command, ControlPlaneClient.PagesDone>ask(rack.system(), client,
            ControlPlaneClient.AwaitReady::new, READY);
        clients.put(s.host(), client);
      }
    }
    List<Sent> sent = new ArrayList<>();
    for (LoanStep s : steps) {
      long at = startAt + s.atNs();
      CompletableFuture<OperationResult> answer = Asks.<ControlPlaneClient.Command, OperationResult>askAsync(
          rack.system(), clients.get(s.host()), r -> new ControlPlaneClient.Issue(operation(rack.topology(), s, at, r)),
          Duration.ofDays(1));
      sent.add(new Sent(s, at, answer));
      progress.printf("  loans: %s%n", s.text());
    }
    for (var client : clients.values()) {
      // Answered after the steps were taken: each one's wake is at the endpoint before the confirm.
      Asks.<ControlPlaneClient.Command, ControlPlaneClient.PagesDone>ask(rack.system(), client,
          ControlPlaneClient.GetRequests::new, ASK);
    }
    rack.confirmInputs(List.copyOf(clients.keySet()));
    return new LoanStepsRun(sent);
  }

  /** Waits for every step's answer (at most {@code timeout} in all). */
  public List<LoanStepResult> finish(Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<LoanStepResult> out = new ArrayList<>();
    for (Sent s : sent) {
      try {
        OperationResult r = s.answer().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        out.add(new LoanStepResult(s.step(), s.at(), r.status(), r.at(), r.detail() == null ? "" : r.detail(),
            r.events().stream().map(Object::toString).toList()));
      } catch (TimeoutException e) {
        out.add(new LoanStepResult(s.step(), s.at(), null, -1, "not answered within the run's wall limit", List.of()));
      }
    }
    return out;
  }

  /** The step as the controller's operation, from its host's driver at model time {@code at}. */
  static Operation operation(Topology topology, LoanStep s, long at, ActorRef<OperationResult> replyTo) {
    return switch (s.kind()) {
      case OFFER -> new Controller.OfferDevice(s.device(), s.host(), kind(topology, s.device()),
          ControlPlaneBootPlan.bars(topology.endpoint(s.device()).orElseThrow()), at, replyTo);
      case WITHDRAW -> new Controller.WithdrawOffer(s.device(), s.host(), at, replyTo);
      case BORROW -> new Controller.BorrowDevice(s.device(), s.host(), null, s.windowBase(), s.windowSize(),
          s.windowTarget(), at, replyTo);
      case MAP -> new Controller.MapDmaBuffer(s.device(), s.host(), s.buffer(), s.size(), at, replyTo);
      case UNMAP -> new Controller.UnmapDmaBuffer(s.device(), s.host(), s.buffer(), at, replyTo);
      case RETURN -> new Controller.ReturnDevice(s.device(), s.host(), at, replyTo);
    };
  }

  private static LendableKind kind(Topology topology, String device) {
    return switch (topology.endpoint(device).orElseThrow().device()) {
      case GPU -> LendableKind.GPU;
      case DISK -> LendableKind.DISK;
      default -> throw new IllegalArgumentException("device=" + device + " is not a GPU or a disk");
    };
  }
}

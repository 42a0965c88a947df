package io.rackfabric.loadtests.scenario;

import akka.actor.typed.ActorRef;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.ControlPlaneBootPlan;
import io.rackfabric.cluster.topology.Topology;
import akka.actor.typed.Props;
import io.rackfabric.host.controlplane.ControlPlaneClient;
import io.rackfabric.host.vm.Hypervisor;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.api.LoanStepResult;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.GuestPlan;
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
 * The VMs' guests ({@code vms[].guest}) get a {@link Hypervisor} on their host, started with the
 * steps; what each asked the controller joins the steps' results as steps of its own.
 */
public final class LoanStepsRun {

  private static final Duration ASK = Duration.ofSeconds(10);
  /** A driver learns the hosts once both answered their status; on a loaded machine that takes a while. */
  private static final Duration READY = Duration.ofMinutes(2);

  private record Sent(LoanStep step, long at, CompletableFuture<OperationResult> answer) {}

  private record Vm(GuestPlan guests, long startAt, ActorRef<Hypervisor.Command> hypervisor) {}

  private final RunningRack rack;
  private final List<Sent> sent;
  private final List<Vm> vms;

  private LoanStepsRun(RunningRack rack, List<Sent> sent, List<Vm> vms) {
    this.rack = rack;
    this.sent = sent;
    this.vms = vms;
  }

  /** Hands every step to its host's driver and starts each VM's hypervisor; returns at once. */
  public static LoanStepsRun start(RunningRack rack, List<LoanStep> steps, List<GuestPlan> guests,
      PrintStream progress) throws Exception {
    long startAt = rack.hostStartModelTime();
    rack.holdModelTime(startAt);
    Map<String, ActorRef<ControlPlaneClient.Command>> clients = new LinkedHashMap<>();
    List<String> hosts = new ArrayList<>(steps.stream().map(LoanStep::host).toList());
    guests.forEach(g -> hosts.add(g.plan().host()));
    for (String host : hosts) {
      if (!clients.containsKey(host)) {
        var client = Asks.find(rack.system(), ComponentKeys.controlPlaneClient(host), ASK);
        Asks.<ControlPlaneClient.Command, ControlPlaneClient.PagesDone>ask(rack.system(), client,
            ControlPlaneClient.AwaitReady::new, READY);
        clients.put(host, client);
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
    List<Vm> vms = new ArrayList<>();
    for (GuestPlan g : guests) {
      String host = g.plan().host();
      ActorRef<Hypervisor.Command> ref = rack.system().systemActorOf(Hypervisor.create(g.at(startAt),
          rack.endpoint(host), clients.get(host)), "hypervisor-" + g.plan().vm(), Props.empty());
      // Answered once its wakes are asked for: they are at the endpoint before the confirm.
      Asks.<Hypervisor.Command, Hypervisor.Started>ask(rack.system(), ref, Hypervisor.Start::new, ASK);
      vms.add(new Vm(g, startAt, ref));
      progress.printf("  vm %s on %s: %d guest action(s) for its hypervisor%n", g.plan().vm(), host,
          g.plan().actions().size());
    }
    for (var client : clients.values()) {
      // Answered after the steps were taken: each one's wake is at the endpoint before the confirm.
      Asks.<ControlPlaneClient.Command, ControlPlaneClient.PagesDone>ask(rack.system(), client,
          ControlPlaneClient.GetRequests::new, ASK);
    }
    rack.confirmInputs(List.copyOf(clients.keySet()));
    return new LoanStepsRun(rack, sent, vms);
  }

  /**
   * Waits for every step's answer (at most {@code timeout} in all); the steps and what the
   * hypervisors asked, in the order of their model times (a listed step before a guest's of the
   * same time), numbered from 0.
   */
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
    for (Vm vm : vms) {
      out.addAll(GuestRequests.results(vm.guests(), vm.startAt(), record(vm, deadline)));
    }
    return GuestRequests.inOrder(out);
  }

  /** The hypervisor's record once every request it handed over is answered (at most until the deadline). */
  private Hypervisor.Record record(Vm vm, long deadline) throws Exception {
    return Asks.<Hypervisor.Command, Hypervisor.Record>ask(rack.system(), vm.hypervisor(), Hypervisor.GetRecord::new,
        Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
  }

  /** The step as the controller's operation, from its host's driver at model time {@code at}. */
  static Operation operation(Topology topology, LoanStep s, long at, ActorRef<OperationResult> replyTo) {
    return switch (s.kind()) {
      case OFFER -> new Controller.OfferDevice(s.device(), s.host(), kind(topology, s.device()),
          ControlPlaneBootPlan.bars(topology.endpoint(s.device()).orElseThrow()), at, replyTo);
      case WITHDRAW -> new Controller.WithdrawOffer(s.device(), s.host(), at, replyTo);
      case BORROW -> new Controller.BorrowDevice(s.device(), s.host(), null, s.windowBase(), s.windowSize(),
          s.windowTarget(), s.msi() == LoanStep.NO_MSI ? Controller.BorrowDevice.NO_MSI : s.msi(), at, replyTo);
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

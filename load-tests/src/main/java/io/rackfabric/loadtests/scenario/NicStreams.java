package io.rackfabric.loadtests.scenario;

import akka.actor.typed.ActorRef;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.NicNode;
import io.rackfabric.loadtests.scenario.language.NicStream;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.RouteExplainer;
import io.rackfabric.cluster.topology.RouteExplanation;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.ftgm.NicFaultDaemon;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.nic.ExternalReceiver;
import io.rackfabric.host.nic.NicSettings;
import io.rackfabric.host.nic.NicStats;
import io.rackfabric.host.nic.RegisterMap;
import io.rackfabric.host.nic.RequesterMatch;
import io.rackfabric.host.nic.SendPlan;
import io.rackfabric.host.nic.SriovNic;
import io.rackfabric.host.nic.StreamSummary;
import io.rackfabric.host.nic.UdpSender;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.api.NicStreamResult;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.ControllerEvent.VfAssigned;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A scenario's {@code nic-stream} on a running rack (Ladon section 5.2): the management host's
 * PF driver assigns VF i to the i-th sending compute host (one posted write into the PF's
 * registers, as {@code LadonTestbedNicTest} does), then each host's {@link UdpSender} (started by
 * its node) sends through its VF to the server outside the rack. With a management-host pair,
 * each sender follows the pair's restarts (the baseline take-over resets every CH), and the
 * assignment is stamped with the master's control-plane clock, so that the window a restart
 * announces lies on the senders' time line.
 */
public final class NicStreams {

  private static final Duration ASK = Duration.ofSeconds(10);
  /** Where each CH's driver keeps its ring and buffers in its own memory: clear of scenario traffic. */
  static final long CH_AREA = 0x4000_0000L;

  private record Stream(String host, int vf, CompletableFuture<UdpSender.SendDone> done) {}

  /** How often a long wait for the senders says how far they got. */
  private static final long PROGRESS_NS = 5_000_000_000L;

  private final RunningRack rack;
  private final ActorRef<SriovNic.Command> nic;
  private final ActorRef<ExternalReceiver.Command> receiver;
  private final List<Stream> streams;
  private final PrintStream progress;
  private final int count;
  /** Each sender's completed packets at the last progress line. */
  private final java.util.Map<String, Integer> completedAtLastLine = new java.util.HashMap<>();

  private NicStreams(RunningRack rack, ActorRef<SriovNic.Command> nic, ActorRef<ExternalReceiver.Command> receiver,
      List<Stream> streams, PrintStream progress, int count) {
    this.rack = rack;
    this.nic = nic;
    this.receiver = receiver;
    this.streams = streams;
    this.progress = progress;
    this.count = count;
  }

  /**
   * Assigns the VFs and starts every host's sender; returns once each sender has its plan, under
   * the model-time kernel with the rack held at the streams' start (the run's stretches release it).
   */
  public static NicStreams start(RunningRack rack, NicStream spec, PrintStream progress) throws Exception {
    Topology topology = rack.topology();
    EndpointSpec nicSpec = NicNode.nicOf(topology).orElseThrow(() -> new IllegalStateException(
        "topology " + topology.name() + " has no NIC endpoint " + NicNode.NIC_ID));
    NicSettings settings = NicSettings.create(rack.system().settings().config());
    RegisterMap map = RegisterMap.of(nicSpec.bars(), settings);
    GlobalMemoryLayout layout = topology.globalMemory().orElseThrow();
    List<String> computeHosts = topology.globalMemorySpec().computeHosts();
    String mh = topology.globalMemorySpec().managementHost();
    ActorRef<SriovNic.Command> nic = Asks.find(rack.system(), ComponentKeys.nic(NicNode.NIC_ID), ASK);
    ActorRef<ExternalReceiver.Command> receiver = Asks.find(rack.system(), ComponentKeys.nicReceiver(NicNode.NIC_ID),
        ASK);

    List<ActorRef<ControlPlaneHost.Command>> pair = new ArrayList<>();
    // Under the model-time kernel the set-up enters a quiet rack at the model time it reached; the
    // master's clock (its pairing and heartbeats) is not the data plane's, so its answers' times
    // are not used there.
    long quiet = rack.quietModelTime();
    long at = -1; // the MH endpoint's own clock
    ControlPlaneSpec cp = topology.controlPlane();
    if (cp != null) {
      for (String host : List.of(cp.master(), cp.backup())) {
        pair.add(Asks.find(rack.system(), ComponentKeys.controlPlaneHost(host), ASK));
      }
      at = Asks.<ControlPlaneHost.Command, ControlPlaneHost.HostStatus>ask(rack.system(), pair.get(0),
          ControlPlaneHost.GetStatus::new, ASK).modelNow();
    }

    // The NIC's fault-tolerance daemon (on the MH's node) learns the card and, as the PF driver's
    // copy, each VF it lends below; with a control plane it restores what the controller lends.
    ActorRef<NicFaultDaemon.Command> daemon = Asks.find(rack.system(), ComponentKeys.nicDaemon(NicNode.NIC_ID), ASK);
    daemon.tell(new NicFaultDaemon.UseCard(nic));
    if (!pair.isEmpty()) {
      daemon.tell(new NicFaultDaemon.UseController(pair.get(0)));
    }
    List<RequesterMatch> owners = new ArrayList<>();
    RouteExplainer routes = new RouteExplainer(topology);
    List<Integer> vfs = new ArrayList<>();
    List<MemoryEndpoint.Write> assigns = new ArrayList<>();
    for (String host : spec.from()) {
      int ch = computeHosts.indexOf(host) + 1;
      // With a control plane the master's controller lends the VF (AssignVf: persisted, replicated,
      // the lowest free one); its answer's model time stamps the register write that enables it.
      int vf = vfs.size();
      if (!pair.isEmpty()) {
        OperationResult lent = Asks.<ControlPlaneHost.Command, OperationResult>ask(rack.system(), pair.get(0),
            r -> new ControlPlaneHost.Submit(new Controller.AssignVf(NicNode.NIC_ID, host, 0, r)), ASK);
        if (!lent.accepted()) {
          throw new IllegalStateException("the master " + cp.master() + " lent " + host + " no VF of "
              + NicNode.NIC_ID + ": " + lent.status() + " " + lent.detail());
        }
        vf = lent.events().stream().filter(e -> e instanceof VfAssigned).map(e -> ((VfAssigned) e).vf())
            .findFirst().orElseThrow();
        at = quiet >= 0 ? quiet : Math.max(at, lent.at());
      }
      vfs.add(vf);
      RouteExplanation bell = routes.explain(host, layout.chAddress(ch, 0, map.vfBar(vf) + RegisterMap.TDT,
          Plane.PRIMARY), false);
      RouteExplanation dma = routes.explain(NicNode.NIC_ID, layout.mhAddress(ch, 0, Plane.PRIMARY) + CH_AREA, true);
      if (!NicNode.NIC_ID.equals(bell.outcome().component()) || !host.equals(dma.outcome().component())) {
        throw new IllegalStateException(host + "'s VF " + vf + " is not reachable both ways:\n" + bell.toText()
            + "\n" + dma.toText());
      }
      int requester = bell.hops().get(bell.hops().size() - 1).requester();
      RegisterMap.Poke assign = map.assignVf(vf, RequesterMatch.throughNtb(requester), RequesterMatch.NONE);
      owners.add(RequesterMatch.throughNtb(requester));
      assigns.add(new MemoryEndpoint.Write(assign.address(), assign.data(), at));
    }
    // Held there, the writes enter the model together, in this order.
    rack.holdModelTime(quiet >= 0 ? quiet : 0);
    assigns.forEach(rack.endpoint(mh)::tell);
    rack.confirmInputs(List.of(mh));
    rack.releaseModelTime();
    NicStats assigned = awaitAssigned(rack, nic, vfs);
    long startBase = quiet >= 0 ? rack.quietModelTime() : -1;
    rack.holdModelTime(Math.max(0, startBase));

    List<SendPlan> plans = new ArrayList<>();
    for (int i = 0; i < spec.from().size(); i++) {
      int vf = vfs.get(i);
      int ch = computeHosts.indexOf(spec.from().get(i)) + 1;
      SendPlan plan = new SendPlan(vf, layout.chAddress(ch, 0, map.vfBar(vf), Plane.PRIMARY),
          layout.mhAddress(ch, 0, Plane.PRIMARY), CH_AREA, settings.senderRingSize(), spec.count(), spec.intervalNs(),
          spec.payload(), Math.max(startBase, assigned.vf(vf).assignedAt()) + i * spec.intervalNs() / spec.from().size(),
          settings.senderMaxOutstanding());
      plans.add(plan);
      nic.tell(new SriovNic.ExpectStream(vf, plan.startAt(), plan.intervalNs(), plan.count()));
    }
    // Every stream is declared before any doorbell rings (the NIC then serves them in model-time
    // order): a doorbell that overtook its stream's declaration would be counted against no slot,
    // and the stream declared after it would hold the others for a doorbell already served.
    Asks.<SriovNic.Command, NicStats>ask(rack.system(), nic, SriovNic.GetStats::new, ASK);

    List<Stream> streams = new ArrayList<>();
    for (int i = 0; i < spec.from().size(); i++) {
      String host = spec.from().get(i);
      int vf = vfs.get(i);
      SendPlan plan = plans.get(i);
      ActorRef<UdpSender.Command> sender = Asks.find(rack.system(), ComponentKeys.udpSender(host), ASK);
      if (!pair.isEmpty()) {
        sender.tell(new UdpSender.FollowRestarts(pair));
      }
      daemon.tell(new NicFaultDaemon.OpenVf(vf, owners.get(i).encode(), RequesterMatch.NONE.encode(), sender));
      CompletableFuture<UdpSender.SendDone> done = Asks.<UdpSender.Command, UdpSender.SendDone>askAsync(rack.system(),
          sender, r -> new UdpSender.Start(plan, r), Duration.ofDays(1));
      done.whenComplete((d, failure) -> nic.tell(new SriovNic.StreamEnded(vf)));
      streams.add(new Stream(host, vf, done));
      // Its first writes have reached its endpoint once it answers (it sends them on Start).
      Asks.<UdpSender.Command, UdpSender.SenderStatus>ask(rack.system(), sender, UdpSender.GetStatus::new, ASK);
      rack.confirmInputs(List.of(host));
      progress.printf("  nic-stream: %s sends %,d packets of %d bytes every %s through VF %d (assigned at %d ns)%n",
          host, spec.count(), spec.payload(), io.rackfabric.loadtests.scenario.language.Durations.text(spec.intervalNs()), vf,
          assigned.vf(vf).assignedAt());
    }
    // Still held at the streams' start: the run's first stretch says how far the rack may go.
    return new NicStreams(rack, nic, receiver, streams, progress, spec.count());
  }

  private static NicStats awaitAssigned(RunningRack rack, ActorRef<SriovNic.Command> nic, List<Integer> vfs)
      throws Exception {
    long deadline = System.nanoTime() + ASK.toNanos();
    while (true) {
      NicStats s = Asks.<SriovNic.Command, NicStats>ask(rack.system(), nic, SriovNic.GetStats::new, ASK);
      boolean all = true;
      for (int vf : vfs) {
        all &= s.vf(vf).enabled();
      }
      if (all) {
        return s;
      }
      if (System.nanoTime() > deadline) {
        throw new TimeoutException("the NIC did not enable VFs " + vfs + " within " + ASK);
      }
      Thread.sleep(50); // polling the NIC's registers: an assignment answers nobody
    }
  }

  /** The sender's result; every {@link #PROGRESS_NS} of waiting, a line on how far it got. */
  private UdpSender.SendDone awaitSender(Stream s, long start, long deadline) throws Exception {
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new TimeoutException(s.host() + "'s sender");
      }
      try {
        return s.done().get(Math.min(left, PROGRESS_NS), TimeUnit.NANOSECONDS);
      } catch (TimeoutException notYet) {
        if (System.nanoTime() >= deadline) {
          throw notYet;
        }
        try {
          UdpSender.SenderStatus st = Asks.<UdpSender.Command, UdpSender.SenderStatus>ask(rack.system(),
              Asks.find(rack.system(), ComponentKeys.udpSender(s.host()), ASK), UdpSender.GetStatus::new, ASK);
          // A stream that completed nothing since the last line: say what the card holds.
          Integer before = completedAtLastLine.put(s.host(), st.completed());
          String stuck = before != null && before == st.completed() ? "; " + cardView(s.vf()) : "";
          progress.printf("    %.1f s: nic-stream %s sent %,d of %,d packets, %,d completed; sender at model %.3f s%s%n",
              (System.nanoTime() - start) / 1e9, s.host(), st.sent(), count, st.completed(),
              Math.max(0, st.lastSentAt()) / 1e9, stuck);
        } catch (Exception unanswered) {
          progress.printf("    %.1f s: nic-stream %s: its sender does not answer (%s)%n",
              (System.nanoTime() - start) / 1e9, s.host(), unanswered.getMessage());
        }
      }
    }
  }

  /** What the card holds for VF {@code vf}, to say where an unfinished stream stopped. */
  private String cardView(int vf) {
    try {
      return Asks.<SriovNic.Command, NicStats>ask(rack.system(), nic, SriovNic.GetStats::new, ASK).describeVf(vf);
    } catch (Exception unanswered) {
      return "the nic did not answer (" + unanswered.getMessage() + ")";
    }
  }

  /**
   * Waits until every sender is done (at most {@code timeout}) and its packets have arrived or
   * stayed away for {@code settle}, then reads the receiver.
   */
  public List<NicStreamResult> finish(Duration timeout, Duration settle) throws Exception {
    long start = System.nanoTime();
    long deadline = start + timeout.toNanos();
    List<UdpSender.SendDone> done = new ArrayList<>();
    for (Stream s : streams) {
      try {
        done.add(awaitSender(s, start, deadline));
      } catch (TimeoutException e) {
        UdpSender.SenderStatus st = Asks.<UdpSender.Command, UdpSender.SenderStatus>ask(rack.system(),
            Asks.find(rack.system(), ComponentKeys.udpSender(s.host()), ASK), UdpSender.GetStatus::new, ASK);
        done.add(new UdpSender.SendDone(st.sender(), st.sent(), st.completed(), 0, -1, st.lastSentAt(),
            st.lastCompletedAt(), "not finished within the run's wall limit; " + cardView(s.vf())));
      }
    }
    long sent = done.stream().mapToLong(UdpSender.SendDone::sent).sum();
    try {
      Asks.<ExternalReceiver.Command, ExternalReceiver.FramesReached>ask(rack.system(), receiver,
          r -> new ExternalReceiver.AwaitFrames(sent, r), settle);
    } catch (Exception stillMissing) {
      // some never arrive: the report counts them as lost
    }
    // One reply per stream: each is bounded (StreamSummary), however many packets it carried.
    List<NicStreamResult> out = new ArrayList<>();
    for (int i = 0; i < streams.size(); i++) {
      Stream s = streams.get(i);
      long due = (long) done.get(i).sent() + done.get(i).skipped();
      StreamSummary summary = Asks.<ExternalReceiver.Command, StreamSummary>ask(rack.system(), receiver,
          r -> new ExternalReceiver.GetStream(s.vf(), due, r), ASK);
      out.add(NicStreamResult.of(s.host(), s.vf(), done.get(i), summary));
    }
    return out;
  }
}

package io.rackfabric.loadtests.cli;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.receptionist.Receptionist;
import io.rackfabric.cluster.cli.NodeCommand;
import io.rackfabric.cluster.cli.NodeOptions;
import io.rackfabric.cluster.cli.PicocliRackCommand;
import io.rackfabric.cluster.node.RackNode;
import io.rackfabric.loadtests.bench.BareSink;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code rack bench-peer}: a node like {@code rack node} that also runs the bare-Artery baseline's
 * sink, so a benchmark can compare both against the same remote JVM.
 */
@Command(name = "bench-peer", sortOptions = false,
    description = {"(used by rack bench) a node that also hosts the bare-Artery baseline's sink",
        "Takes rack node's flags; prints READY NODE once the node is an Up member and its sink registered."})
public final class BenchPeerRackCommand extends PicocliRackCommand {

  @Mixin
  NodeOptions node;

  @Override
  public Integer call() throws Exception {
    String name = node.node();
    ActorSystem<RackNode.Command> system = node.start();
    ActorRef<BareSink.Command> sink = system.systemActorOf(BareSink.create(), "bare-sink", Props.empty());
    system.receptionist().tell(Receptionist.register(BareSink.KEY, sink));
    out.println("READY " + name);
    out.flush();
    return NodeCommand.awaitExit(system, "rack " + name() + " " + name, err);
  }
}

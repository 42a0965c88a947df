package io.rackfabric.loadtests.bench;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import io.rackfabric.cluster.cli.Args;
import io.rackfabric.cluster.cli.NodeCommand;
import io.rackfabric.cluster.cli.RackCommand;
import io.rackfabric.cluster.node.RackNode;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;

/**
 * {@code rack bench-peer}: a node like {@code rack node} that also runs the bare-Artery baseline's
 * sink, so a benchmark can compare both against the same remote JVM.
 */
public final class BenchPeerCommand implements RackCommand {

  public static final ServiceKey<BareSink.Command> SINK_KEY = ServiceKey.create(BareSink.Command.class, "bench-bare-sink");

  @Override
  public String name() {
    return "bench-peer";
  }

  @Override
  public String summary() {
    return "(used by rack bench) a node that also hosts the bare-Artery baseline's sink";
  }

  @Override
  public int run(List<String> argList, PrintStream out, PrintStream err) throws Exception {
    Args args = Args.parse(argList, NodeCommand.FLAGS, Set.of());
    ActorSystem<RackNode.Command> system = NodeCommand.startNode(args);
    ActorRef<BareSink.Command> sink = system.systemActorOf(BareSink.create(), "bare-sink", Props.empty());
    system.receptionist().tell(Receptionist.register(SINK_KEY, sink));
    out.println("READY " + args.require("node"));
    out.flush();
    return NodeCommand.awaitExit(system, "rack " + name() + " " + args.require("node"), err);
  }
}

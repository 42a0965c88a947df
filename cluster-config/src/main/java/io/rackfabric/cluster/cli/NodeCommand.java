package io.rackfabric.cluster.cli;

import akka.actor.CoordinatedShutdown;
import akka.actor.typed.ActorSystem;
import com.typesafe.config.Config;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.cluster.node.RackNode;
import java.io.PrintStream;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code rack node --topology F --node N}: runs one node of a rack until it is stopped. Prints
 * {@code READY node host:port} once the node is an Up member with its components spawned.
 */
@Command(name = "node", sortOptions = false,
    description = {"run one node of a topology (--topology F --node N [--port P] [--seed host:port]"
        + " [--transport aeron-udp|tcp|tls-tcp] [--tls-dir KEYS] [--data-dir D])",
        "Prints READY NODE HOST:PORT once the node is an Up member with its components spawned, and runs until"
        + " stopped (Ctrl-C, SIGTERM: it leaves the cluster first). Exit 0 when stopped so, 1 when the cluster"
        + " downed it, 2 for bad flags."})
public final class NodeCommand extends PicocliRackCommand {

  @Mixin
  NodeOptions node;

  @Override
  public Integer call() throws Exception {
    String name = node.node();
    ActorSystem<RackNode.Command> system = node.start();
    out.println("READY " + name + " " + system.address().getHost().get() + ":" + system.address().getPort().get());
    out.println("node " + name + " runs " + node.topology().placedOn(name).stream()
        .map(c -> c.id()).toList() + "; stop it with Ctrl-C (it leaves the cluster first)");
    out.flush();
    return awaitExit(system, "rack node " + name, err);
  }

  /**
   * Blocks until the node's system has terminated and returns the command's exit status: 0 when
   * the shutdown was asked for (Ctrl-C, SIGTERM, leaving), 1 with one line on {@code err} when the
   * cluster downed this member, e.g. after the others found it unreachable. {@code who} starts
   * that line, e.g. {@code rack node node-b}.
   */
  public static int awaitExit(ActorSystem<?> system, String who, PrintStream err) throws Exception {
    system.getWhenTerminated().toCompletableFuture().get();
    Optional<CoordinatedShutdown.Reason> reason = CoordinatedShutdown.get(system.classicSystem()).getShutdownReason();
    if (reason.isPresent() && reason.get() == CoordinatedShutdown.clusterDowningReason()) {
      err.println(who + ": downed by the cluster (the other members removed this one, e.g. after"
          + " it was unreachable; start it again to rejoin)");
      err.flush();
      return 1;
    }
    return 0;
  }

  /**
   * The cluster settings with {@code --transport} and {@code --tls-dir} applied: {@code transport}
   * null means the configured one, {@code tlsDir} null the configured stores. With tls-tcp the
   * stores are opened now, so that a missing file or a wrong password is a usage error (exit 2)
   * naming the path, before any actor system starts.
   */
  public static ClusterSettings clusterSettings(Config base, String transport, String tlsDir) throws UsageException {
    if (transport != null && !ClusterSettings.TRANSPORTS.contains(transport)) {
      throw new UsageException(ClusterSettings.transportNotKnown("--transport", transport));
    }
    try {
      ClusterSettings cluster = ClusterSettings.create(base, transport, tlsDir);
      if (tlsDir != null && cluster.tls() == null) {
        throw new UsageException("--tls-dir is for --transport tls-tcp (the transport is " + cluster.transport() + ")");
      }
      return cluster;
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }
}

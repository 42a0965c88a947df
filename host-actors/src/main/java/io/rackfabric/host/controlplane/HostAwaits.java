package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import io.rackfabric.host.controlplane.ControlPlaneClient.UseHosts;
import java.util.ArrayList;
import java.util.List;

/**
 * A driver's answers to {@link ControlPlaneClient.AwaitHost}: each is given once the driver's list
 * of management hosts holds the host asked for. A host whose node started again is listed at a new
 * address, which the driver learns through the receptionist in wall time; a run driver holds the
 * rack at the restart until every driver has it, so that no request goes to the dead address.
 * Not thread-safe: the driver actor's own.
 */
final class HostAwaits {

  private record Waiting(ActorRef<ControlPlaneHost.Command> host, Runnable answer) {}

  private final List<Waiting> waiting = new ArrayList<>();

  /** Answers at once when {@code current} (null: none yet) holds {@code host}, else once a list does. */
  void await(ActorRef<ControlPlaneHost.Command> host, UseHosts current, Runnable answer) {
    if (holds(current, host)) {
      answer.run();
    } else {
      waiting.add(new Waiting(host, answer));
    }
  }

  /** The driver uses {@code hosts} from now on: answers whoever waited for one of them. */
  void hostsNow(UseHosts hosts) {
    waiting.removeIf(w -> {
      if (holds(hosts, w.host())) {
        w.answer().run();
        return true;
      }
      return false;
    });
  }

  int waiting() {
    return waiting.size();
  }

  private static boolean holds(UseHosts hosts, ActorRef<ControlPlaneHost.Command> host) {
    return hosts != null && hosts.hosts().contains(host);
  }
}

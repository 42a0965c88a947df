package io.rackfabric.cluster.iommu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.receptionist.Receptionist;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.host.iommu.Permission;
import io.rackfabric.host.management.ManagementHost;
import java.time.Duration;

/**
 * Opens pages as host software must before one host touches another's memory: in a rack with a
 * management host the compute hosts deny each other by default, and only the MH opens them.
 */
public final class OpenPages {

  private OpenPages() {}

  /** Opens {@code count} pages from {@code page} of {@code target} to {@code requester}, read/write. */
  public static void open(ActorTestKit kit, String mh, String target, String requester, long page, long count) {
    TestProbe<Receptionist.Listing> find = kit.createTestProbe();
    var key = ComponentKeys.managementHost(mh);
    var ref = find.awaitAssert(Duration.ofSeconds(10), () -> {
      kit.system().receptionist().tell(Receptionist.find(key, find.ref()));
      var refs = find.receiveMessage().getServiceInstances(key);
      assertEquals(1, refs.size(), key + " registered");
      return refs.iterator().next();
    });
    TestProbe<ManagementHost.IsolationResult> result = kit.createTestProbe();
    // Retried only until the MH has found the target's root endpoint through the Receptionist.
    result.awaitAssert(Duration.ofSeconds(10), () -> {
      ref.tell(new ManagementHost.OpenIommuPage(target, requester, page, count, Permission.READ_WRITE, result.ref()));
      ManagementHost.IsolationResult r = result.receiveMessage();
      assertTrue(r.accepted(), r.detail());
      return null;
    });
  }
}

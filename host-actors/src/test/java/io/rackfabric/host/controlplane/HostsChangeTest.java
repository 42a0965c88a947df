package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.host.controlplane.ControlPlaneClient.UseHosts;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class HostsChangeTest {

  private static final ActorTestKit KIT = ActorTestKit.create();
  private static final ActorRef<ControlPlaneHost.Command> A = KIT.<ControlPlaneHost.Command>createTestProbe().ref();
  private static final ActorRef<ControlPlaneHost.Command> B = KIT.<ControlPlaneHost.Command>createTestProbe().ref();

  @AfterAll
  static void shutdown() {
    KIT.shutdownTestKit();
  }

  private static GuestAddress guest(String endpoint) {
    return new GuestAddress(endpoint, KIT.createTestProbe().ref().unsafeUpcast(),
        KIT.createTestProbe().ref().unsafeUpcast());
  }

  @Test
  void shouldRefuseAListWhenItNamesNoHostOrAGuestAddressTooFew() {
    assertEquals("UseHosts names no management host", HostsChange.malformed(new UseHosts(List.of())));
    assertEquals("UseHosts names 2 hosts and 1 guest addresses",
        HostsChange.malformed(new UseHosts(List.of(A, B), List.of(guest("mh1")))));
    assertNull(HostsChange.malformed(new UseHosts(List.of(A, B))));
  }

  @Test
  void shouldTakeALaterListOnlyWhenItNamesAsManyHostsTheSameWay() {
    UseHosts first = new UseHosts(List.of(A, B));
    assertNull(HostsChange.mismatch(first, new UseHosts(List.of(B, A))));
    assertEquals("has 2 hosts; a list of 1 is ignored", HostsChange.mismatch(first, new UseHosts(List.of(A))));
    assertEquals("has 2 hosts; a list of 2 on guest channels is ignored",
        HostsChange.mismatch(first, new UseHosts(List.of(A, B), List.of(guest("mh1"), guest("mh2")))));
  }
}

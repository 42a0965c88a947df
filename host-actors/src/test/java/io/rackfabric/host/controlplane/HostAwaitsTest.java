package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.host.controlplane.ControlPlaneClient.UseHosts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class HostAwaitsTest {

  private static final ActorTestKit KIT = ActorTestKit.create();
  private static final ActorRef<ControlPlaneHost.Command> MMH = KIT.<ControlPlaneHost.Command>createTestProbe().ref();
  private static final ActorRef<ControlPlaneHost.Command> BMH = KIT.<ControlPlaneHost.Command>createTestProbe().ref();
  /** The MMH's host after its node started again: a new address. */
  private static final ActorRef<ControlPlaneHost.Command> MMH_AGAIN =
      KIT.<ControlPlaneHost.Command>createTestProbe().ref();

  @AfterAll
  static void shutdown() {
    KIT.shutdownTestKit();
  }

  @Test
  void shouldAnswerAtOnceWhenTheHostIsListedAlready() {
    HostAwaits awaits = new HostAwaits();
    List<String> answered = new ArrayList<>();
    awaits.await(BMH, new UseHosts(List.of(MMH, BMH)), () -> answered.add("bmh"));
    assertEquals(List.of("bmh"), answered);
    assertEquals(0, awaits.waiting());
  }

  @Test
  void shouldAnswerOnlyWhenAListHoldsTheNewAddressWhenTheHostStartedAgain() {
    HostAwaits awaits = new HostAwaits();
    List<String> answered = new ArrayList<>();
    awaits.await(MMH_AGAIN, null, () -> answered.add("before any list"));
    awaits.await(MMH_AGAIN, new UseHosts(List.of(MMH, BMH)), () -> answered.add("old list"));
    awaits.hostsNow(new UseHosts(List.of(MMH, BMH))); // the old address again: no answer
    assertEquals(List.of(), answered);
    assertEquals(2, awaits.waiting());
    awaits.hostsNow(new UseHosts(List.of(MMH_AGAIN, BMH)));
    assertEquals(List.of("before any list", "old list"), answered);
    assertEquals(0, awaits.waiting());
    awaits.hostsNow(new UseHosts(List.of(MMH_AGAIN, BMH)));
    assertEquals(2, answered.size(), "each answered once");
  }

  @Test
  void shouldAnswerARunDriverOnceTheDriverUsesTheRestartedHostsAddress() {
    var config = ConfigFactory.load();
    ActorRef<ControlPlaneClient.Command> client = KIT.spawn(ControlPlaneClient.create("ch1-driver",
        ControlPlaneSettings.create(config), ClientSettings.create(config)), "await-host-client");
    TestProbe<ControlPlaneClient.PagesDone> probe = KIT.createTestProbe();
    client.tell(new ControlPlaneClient.UseHosts(List.of(MMH, BMH)));
    client.tell(new ControlPlaneClient.AwaitHost(MMH_AGAIN, probe.ref()));
    probe.expectNoMessage(Duration.ofMillis(200));
    client.tell(new ControlPlaneClient.UseHosts(List.of(MMH_AGAIN, BMH)));
    assertEquals("ch1-driver", probe.receiveMessage().client());
    client.tell(new ControlPlaneClient.AwaitHost(BMH, probe.ref()));
    assertEquals("ch1-driver", probe.receiveMessage().client(), "listed already: at once");
  }
}

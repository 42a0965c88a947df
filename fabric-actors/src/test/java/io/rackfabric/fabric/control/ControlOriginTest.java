package io.rackfabric.fabric.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.Address;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ControlOriginTest {

  static final Address SELF = new Address("akka", "rack", "10.0.0.2", 25520);
  static final Address DRIVER = new Address("akka", "rack", "10.0.0.1", 25520);
  static final Address STRANGER = new Address("akka", "rack", "10.0.0.66", 25520);
  static final Address LOCAL = new Address("akka", "rack");

  @Test
  void shouldAcceptTheOwnNodeWhenTheOriginIsLocalOrCarriesThisNodesAddress() {
    ControlOrigin origin = new ControlOrigin(SELF, DRIVER);
    assertTrue(origin.accepts(LOCAL), "a local ref");
    assertTrue(origin.accepts(SELF), "a ref carrying this node's own address");
  }

  @Test
  void shouldAcceptTheDriverAndRefuseAnyOtherMemberWhenTheDriverIsKnown() {
    ControlOrigin origin = new ControlOrigin(SELF, DRIVER);
    assertTrue(origin.accepts(DRIVER));
    assertFalse(origin.accepts(STRANGER), "a member that is neither the driver nor this node");
    assertFalse(origin.accepts(new Address("akka", "rack", "10.0.0.1", 25521)), "the driver's host, another port");
    assertFalse(origin.accepts(new Address("akka", "other", "10.0.0.1", 25520)), "the driver's port, another system");
  }

  @Test
  void shouldAcceptOnlyTheOwnNodeWhenNoDriverIsKnown() {
    ControlOrigin origin = new ControlOrigin(SELF, null);
    assertEquals(Optional.empty(), origin.driver());
    assertTrue(origin.accepts(LOCAL));
    assertFalse(origin.accepts(DRIVER));
    assertFalse(ControlOrigin.localOnly().accepts(SELF), "local-only knows no address of its own");
    assertTrue(ControlOrigin.localOnly().accepts(LOCAL));
    assertTrue(origin.withDriver(DRIVER).accepts(DRIVER), "learned later");
  }

  @Test
  void shouldTakeIommuChangesButNoFaultFromAManagementNodeWhenItIsKnown() {
    Address mmhNode = new Address("akka", "rack", "10.0.0.3", 25520);
    ControlOrigin origin = new ControlOrigin(SELF, DRIVER).withManagement(mmhNode);
    var fromMmh = ForeignRefs.at(mmhNode, "mh");
    var fromStranger = ForeignRefs.at(STRANGER, "mh");
    assertTrue(origin.acceptsConfiguration(fromMmh), "the MH opens and closes pages");
    assertFalse(origin.accepts(fromMmh), "a fault from the MH's node is not the driver's");
    assertFalse(origin.acceptsConfiguration(fromStranger));
    assertTrue(origin.acceptsConfiguration(ForeignRefs.at(DRIVER, "run")), "the driver may configure too");
    assertFalse(new ControlOrigin(SELF, DRIVER).acceptsConfiguration(fromMmh), "not before it is known");
  }

  @Test
  void shouldRefuseWhenTheMessageCarriesNoOrigin() {
    ControlOrigin origin = new ControlOrigin(SELF, DRIVER);
    assertFalse(origin.accepts((Address) null));
    assertFalse(origin.accepts((akka.actor.typed.ActorRef<?>) null));
    assertEquals("no origin", ControlOrigin.describe(null));
  }
}

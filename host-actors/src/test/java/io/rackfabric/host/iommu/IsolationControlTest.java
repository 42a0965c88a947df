package io.rackfabric.host.iommu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.typed.receptionist.ServiceKey;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.AccessCheckChange;
import io.rackfabric.fabric.endpoint.InboundAccessCheck;
import io.rackfabric.fabric.endpoint.InboundAccessCheck.Decision;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.PagePermission;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IsolationControlTest {

  static final long CONTROL = 0x10000;
  static final int MH_PRI = 0x0500;
  static final int MH_SEC = 0x0600;
  static final int CH1_PRI = 0x0501;
  static final int CH1_SEC = 0x0601;
  static final IsolationPlan PLAN = new IsolationPlan(List.of(new IsolationPlan.Target("ch3",
      List.of(AddressRange.ofSize(0, 1L << 30)),
      ServiceKey.create(MemoryEndpoint.Command.class, "ch3"),
      Map.of("mmh", List.of(MH_PRI, MH_SEC), "ch1", List.of(CH1_PRI, CH1_SEC)))));

  /** Applies a request's change as the endpoint would; returns the check it keeps. */
  static InboundAccessCheck apply(IsolationControl.Request r, InboundAccessCheck current) {
    assertNull(r.error());
    AccessCheckChange.Result result = r.change().applyTo("ch3", current);
    assertTrue(result.accepted(), result.detail());
    return result.check();
  }

  @Test
  void shouldOpenTheControlPageToEveryHostOnEveryPlaneWhenIsolationIsEnabled() {
    IsolationControl control = new IsolationControl(PLAN, CONTROL);
    InboundAccessCheck check = apply(control.enable("ch3"), InboundAccessCheck.allowAll());
    for (int id : List.of(MH_PRI, MH_SEC, CH1_PRI, CH1_SEC)) {
      assertEquals(Decision.ALLOW, check.decide(id, CONTROL + 0x800, 4, true));
      assertEquals(Decision.DENY, check.decide(id, 0x40000, 4, false), "nothing else is open");
    }
    assertTrue(control.isolated("ch3"));
  }

  @Test
  void shouldDenyOtherHostsButServeTheHostsOwnDevicesWhenTheHostStartsIsolated() {
    IsolationControl control = new IsolationControl(PLAN, CONTROL, true);
    assertTrue(control.isolated("ch3"), "isolated from the start: opens need no install");
    InboundAccessCheck check = control.initialCheck("ch3").orElseThrow();
    for (int id : List.of(MH_PRI, MH_SEC, CH1_PRI, CH1_SEC)) {
      assertEquals(Decision.ALLOW, check.decide(id, CONTROL + 0x800, 4, true), "control page, " + id);
      assertEquals(Decision.DENY, check.decide(id, 0x40000, 4, true), "any other page, " + id);
    }
    int ownNicVf = 0x0201;
    assertEquals(Decision.ALLOW, check.decide(ownNicVf, 0x40000, 64, true), "a requester the plan does not place");
    check = apply(control.open("ch3", "ch1", 0x40000, 1, Permission.READ_WRITE), check);
    assertEquals(Decision.ALLOW, check.decide(CH1_PRI, 0x40000, 8, true));
    assertEquals(Decision.DENY, check.decide(MH_PRI, 0x40000, 8, true));
    assertEquals(Decision.ALLOW, check.decide(ownNicVf, 0x50000, 8, false), "still served after a change");
    assertTrue(control.initialCheck("ch9").isEmpty(), "a host the plan does not know");
  }

  @Test
  void shouldTurnTheControllersPageEventsIntoChangesWhenTheRequesterIsAnotherHost() {
    IsolationControl control = new IsolationControl(PLAN, CONTROL, true);
    int ch1InMhDomain = 0x0301;
    Map<Integer, String> hosts = Map.of(ch1InMhDomain, "ch1", 0x0303, "ch3");
    InboundAccessCheck check = control.initialCheck("ch3").orElseThrow();
    var opened = control.forEvent(new ControllerEvent.IommuPageOpened("ch3", ch1InMhDomain, 0x40000,
        PagePermission.READ_WRITE, 0), hosts).orElseThrow();
    assertEquals("ch3", opened.host());
    check = apply(opened.request(), check);
    assertEquals(Decision.ALLOW, check.decide(CH1_PRI, 0x40000, 8, true));
    assertEquals(Decision.ALLOW, check.decide(CH1_SEC, 0x40000, 8, false), "through every plane");
    check = apply(control.forEvent(new ControllerEvent.IommuPageClosed("ch3", ch1InMhDomain, 0x40000, 0), hosts)
        .orElseThrow().request(), check);
    assertEquals(Decision.DENY, check.decide(CH1_PRI, 0x40000, 8, true));
    assertTrue(control.forEvent(new ControllerEvent.IommuPageOpened("ch3", 0x0303, 0x40000,
        PagePermission.READ, 0), hosts).isEmpty(), "a host opening its own page: no IOMMU entry of the plan's");
    assertTrue(control.forEvent(new ControllerEvent.IommuPageOpened("ch3", 0x0999, 0x40000,
        PagePermission.READ, 0), hosts).isEmpty(), "a requester that is no host (a device)");
  }

  @Test
  void shouldOpenAPageUnderEveryIdOfTheRequesterAndNoOtherWhenAsked() {
    IsolationControl control = new IsolationControl(PLAN, CONTROL);
    InboundAccessCheck check = apply(control.enable("ch3"), InboundAccessCheck.allowAll());
    check = apply(control.open("ch3", "ch1", 0x40000, 1, Permission.READ), check);
    assertEquals(Decision.ALLOW, check.decide(CH1_PRI, 0x40000, 8, false));
    assertEquals(Decision.ALLOW, check.decide(CH1_SEC, 0x40000, 8, false));
    assertEquals(Decision.DENY, check.decide(CH1_SEC, 0x40000, 8, true), "read only");
    assertEquals(Decision.DENY, check.decide(MH_PRI, 0x40000, 8, false));
    check = apply(control.close("ch3", "ch1", 0x40000, 1), check);
    assertEquals(Decision.DENY, check.decide(CH1_PRI, 0x40000, 8, false));
  }

  @Test
  void shouldRefuseBeforeSendingAnythingWhenThePageIsNotAligned() {
    IsolationControl control = new IsolationControl(PLAN, CONTROL);
    IsolationControl.Request r = control.open("ch3", "ch1", 0x40010, 1, Permission.READ);
    assertNull(r.change());
    assertTrue(r.error().contains("0x40010"), r.error());
    assertFalse(control.isolated("ch3"), "a refused open installs no IOMMU");
    assertTrue(control.open("ch4", "ch1", 0x40000, 1, Permission.READ).error().contains("targetHost=ch4"));
    assertTrue(control.open("ch3", "ch2", 0x40000, 1, Permission.READ).error().contains("requesterHost=ch2"));
    assertTrue(control.close("ch3", "ch1", 0x40000, 1).error().contains("not enabled"));
  }

  @Test
  void shouldLeaveTheTableAsItWasWhenOneChangeOfABatchIsRefused() {
    IsolationControl control = new IsolationControl(PLAN, CONTROL);
    InboundAccessCheck check = apply(control.enable("ch3"), InboundAccessCheck.allowAll());
    IommuChanges batch = new IommuChanges(List.of(
        new OpenIommuPages(CH1_PRI, 0x40000, 1, Permission.READ_WRITE),
        new CloseIommuPages(CH1_SEC, 0x80000, 1)));
    AccessCheckChange.Result result = batch.applyTo("ch3", check);
    assertFalse(result.accepted());
    assertEquals(Decision.DENY, check.decide(CH1_PRI, 0x40000, 8, false), "the first change was undone");
  }
}

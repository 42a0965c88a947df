package io.rackfabric.persistence.controller;

import static io.rackfabric.persistence.controller.SampleRack.GIB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.persistence.controller.Controller.AddDevice;
import io.rackfabric.persistence.controller.Controller.AddHost;
import io.rackfabric.persistence.controller.Controller.AssignVf;
import io.rackfabric.persistence.controller.Controller.CloseIommuPage;
import io.rackfabric.persistence.controller.Controller.CompleteEnumeration;
import io.rackfabric.persistence.controller.Controller.FreeVf;
import io.rackfabric.persistence.controller.Controller.OpenIommuPage;
import io.rackfabric.persistence.controller.Controller.RemoveDevice;
import io.rackfabric.persistence.controller.Controller.RemoveHost;
import io.rackfabric.persistence.controller.Controller.Request;
import io.rackfabric.persistence.controller.Controller.ReprogramWindow;
import io.rackfabric.persistence.controller.Controller.TakeTemplateImage;
import io.rackfabric.persistence.controller.ControllerEvent.IommuPageOpened;
import io.rackfabric.persistence.controller.ControllerEvent.RequestApplied;
import io.rackfabric.persistence.controller.ControllerEvent.VfAssigned;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ControllerRulesTest {

  private final ControllerState rack = SampleRack.expected(new ArrayList<>());

  private static void assertRejected(Decision d, String mustName) {
    assertFalse(d.accepted(), "accepted: " + d.events());
    assertTrue(d.events().isEmpty());
    assertTrue(d.error().contains(mustName), "error '" + d.error() + "' does not name " + mustName);
  }

  @Test
  void shouldRejectWhenHostOrDeviceIsUnknown() {
    assertRejected(ControllerRules.decide(rack, new RemoveHost("ch9", 0, null)), "host=ch9");
    assertRejected(ControllerRules.decide(rack, new RemoveDevice("gpu7", 0, null)), "device=gpu7");
    assertRejected(ControllerRules.decide(rack, new AssignVf("nic9", "ch1", 0, null)), "nic=nic9");
    assertRejected(ControllerRules.decide(rack, new AssignVf("nic0", "ch9", 0, null)), "host=ch9");
    assertRejected(ControllerRules.decide(rack,
        new OpenIommuPage("ch9", 0x0100, 0, PagePermission.READ, 0, null)), "host=ch9");
    assertRejected(ControllerRules.decide(rack,
        new OpenIommuPage("ch1", 0x0999, 32 * GIB, PagePermission.READ, 0, null)), "requester=0x999");
    assertRejected(ControllerRules.decide(rack,
        new ReprogramWindow("nic0", 0, 0, 4096, 0, 0, null)), "ntb=nic0 is a NIC");
  }

  @Test
  void shouldRejectDoubleFreeWhenVfOrPageIsNotAssigned() {
    // The sample freed VF 0 and reassigned the lowest free VF (0) to ch2; VF 2 is free.
    assertRejected(ControllerRules.decide(rack, new FreeVf("nic0", 2, 0, null)), "vf=2");
    assertRejected(ControllerRules.decide(rack, new FreeVf("nic0", 4, 0, null)), "vf=4 not in [0,3]");
    assertRejected(ControllerRules.decide(rack,
        new CloseIommuPage("ch1", 0x0200, 32 * GIB, 0, null)), "double close");
  }

  @Test
  void shouldRejectIommuPageWhenOutsideHostMemoryOrUnaligned() {
    assertRejected(ControllerRules.decide(rack,
        new OpenIommuPage("ch1", 0x0200, 64 * GIB, PagePermission.READ, 0, null)),
        "pageAddress=0x1000000000 is outside host=ch1");
    assertRejected(ControllerRules.decide(rack,
        new OpenIommuPage("ch1", 0x0200, 32 * GIB - 4096, PagePermission.READ, 0, null)), "outside");
    assertRejected(ControllerRules.decide(rack,
        new OpenIommuPage("ch1", 0x0200, 32 * GIB + 8, PagePermission.READ, 0, null)), "aligned");
  }

  @Test
  void shouldRejectAssignmentWhenEveryVfIsTaken() {
    ControllerState s = rack;
    List<Integer> given = new ArrayList<>();
    for (int i = 0; i < 2; i++) { // two of four are taken already
      Decision d = ControllerRules.decide(s, new AssignVf("nic0", "ch1", 20_000, null));
      assertTrue(d.accepted(), d.error());
      given.add(((VfAssigned) d.events().get(0)).vf());
      s = s.apply(d.events().get(0));
    }
    assertEquals(List.of(2, 3), given);
    assertRejected(ControllerRules.decide(s, new AssignVf("nic0", "ch1", 20_000, null)),
        "nic=nic0 has no free VF: all 4");
  }

  @Test
  void shouldRejectBadValuesWhenAddingHostsAndDevices() {
    assertRejected(ControllerRules.decide(rack, new AddHost("ch1", 0x0500, 0, GIB, 0, null)), "host=ch1");
    assertRejected(ControllerRules.decide(rack, new AddHost("ch3", 0x0100, 0, GIB, 0, null)),
        "requester=0x100 is already in use");
    assertRejected(ControllerRules.decide(rack, new AddHost("ch3", 0x0500, 0, 1000, 0, null)),
        "memorySize=1000");
    assertRejected(ControllerRules.decide(rack, new AddDevice("gpu", DeviceKind.ENDPOINT, 0x0500,
        "x", List.of(new BarRecord(0, 4096, 3000, false)), 0, 0, null)), "size=3000");
    assertRejected(ControllerRules.decide(rack, new AddDevice("gpu", DeviceKind.ENDPOINT, 0x0500,
        "x", List.of(), 2, 0, null)), "totalVfs=2 for kind=ENDPOINT");
    assertRejected(ControllerRules.decide(rack, new AddHost("ch3", 0x0500, 0, GIB, -5, null)), "at=-5");
  }

  @Test
  void shouldRefuseSecondEnumerationAndTemplateWhenAlreadyDone() {
    assertRejected(ControllerRules.decide(rack, new CompleteEnumeration("mmh", 0, null)), "already");
    assertRejected(ControllerRules.decide(rack, new TakeTemplateImage(0, null)), "already taken");
    assertRejected(ControllerRules.decide(ControllerState.empty(), new TakeTemplateImage(0, null)),
        "before enumeration");
  }

  @Test
  void shouldStampEventWithControllerClockWhenOperationWasSentEarlier() {
    Decision d = ControllerRules.decide(rack, new AddHost("ch3", 0x0500, 128 * GIB, GIB, 5, null));
    assertTrue(d.accepted(), d.error());
    assertEquals(rack.modelNow(), d.events().get(0).at());
    assertEquals(16_000, rack.modelNow());
  }

  @Test
  void shouldApplyRequestOnceWhenClientResendsIt() {
    Request first = new Request("ch1-driver", 1,
        new OpenIommuPage("ch1", 0x0200, 32 * GIB + 8192, PagePermission.READ, 30_000, null));
    Decision d = ControllerRules.decide(rack, first);
    assertTrue(d.accepted(), d.error());
    assertEquals(List.of(
        new IommuPageOpened("ch1", 0x0200, 32 * GIB + 8192, PagePermission.READ, 30_000),
        new RequestApplied("ch1-driver", 1, 30_000)), d.events());
    ControllerState after = rack;
    for (ControllerEvent e : d.events()) {
      after = after.apply(e);
    }
    assertEquals(1, after.lastRequest("ch1-driver"));
    assertEquals(0, after.lastRequest("ch2-driver"));

    // The resend (another master, a later time) changes nothing and is answered as applied.
    Decision again = ControllerRules.decide(after, new Request("ch1-driver", 1,
        new OpenIommuPage("ch1", 0x0200, 32 * GIB + 8192, PagePermission.READ, 90_000, null)));
    assertTrue(again.alreadyApplied());
    assertTrue(again.events().isEmpty());
    assertTrue(again.error().contains("ch1-driver#1"), again.error());
    // The next request of that client, and the first of another, are new.
    assertTrue(ControllerRules.decide(after, new Request("ch1-driver", 2,
        new CloseIommuPage("ch1", 0x0200, 32 * GIB + 8192, 0, null))).accepted());
    assertTrue(ControllerRules.decide(after, new Request("ch2-driver", 1,
        new CloseIommuPage("ch1", 0x0200, 32 * GIB + 8192, 0, null))).accepted());
  }

  @Test
  void shouldRejectRequestWhenBadOrItsOperationIsInvalid() {
    OpenIommuPage open = new OpenIommuPage("ch1", 0x0200, 32 * GIB + 8192, PagePermission.READ, 0, null);
    assertRejected(ControllerRules.decide(rack, new Request(" ", 1, open)), "client= ");
    assertRejected(ControllerRules.decide(rack, new Request("c", 0, open)), "requestSeq=0");
    assertRejected(ControllerRules.decide(rack, new Request("c", 1, new Request("c", 1, open))),
        "another request");
    // An invalid operation is refused as such, and the request is not recorded as applied.
    assertRejected(ControllerRules.decide(rack, new Request("c", 1,
        new OpenIommuPage("ch1", 0x0200, 64 * GIB, PagePermission.READ, 0, null))), "outside host=ch1");
  }
}

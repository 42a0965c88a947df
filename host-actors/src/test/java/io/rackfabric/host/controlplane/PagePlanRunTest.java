package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.TestInbox;
import io.rackfabric.host.controlplane.ControlPlaneClient.PagePlan;
import io.rackfabric.host.controlplane.ControlPlaneClient.PagesDone;
import io.rackfabric.host.controlplane.ControlPlaneClient.RequestRecord;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.ControllerRules;
import io.rackfabric.persistence.controller.PagePermission;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PagePlanRunTest {

  private static final long FIRST = 0x40_0000;

  private static PagePlan plan(int count) {
    return new PagePlan("ch1", 0x0200, FIRST, count, 1_000, 250);
  }

  private static RequestRecord record(long seq) {
    return new RequestRecord(seq, 0, 10, Status.ACCEPTED, "ok", 1, 5, false);
  }

  @Test
  void shouldIssueEachPageAtItsTimeAndMarkTheLastWhenStarted() {
    PagePlanRun run = new PagePlanRun();
    assertNull(run.issue(), "no plan runs");
    run.start(plan(3), TestInbox.<PagesDone>create().getRef());
    List<PagePlanRun.Page> pages = new ArrayList<>();
    for (PagePlanRun.Page p = run.issue(); p != null; p = run.issue()) {
      pages.add(p);
    }
    assertEquals(3, pages.size());
    for (int i = 0; i < 3; i++) {
      var request = pages.get(i).request();
      assertEquals(FIRST + i * ControllerRules.PAGE, request.pageAddress());
      assertEquals(1_000 + i * 250L, request.at());
      assertEquals("ch1", request.host());
      assertEquals(0x0200, request.requester());
      assertEquals(PagePermission.READ_WRITE, request.permission());
      assertEquals(i == 2, pages.get(i).last());
    }
  }

  @Test
  void shouldRefuseASecondOrMalformedPlanWhenAsked() {
    PagePlanRun run = new PagePlanRun();
    assertNull(run.refusal(plan(2)));
    assertTrue(run.refusal(plan(0)).contains("count=0"));
    assertTrue(run.refusal(new PagePlan("ch1", 1, FIRST, 2, 0, -5)).contains("interval=-5ns"));
    assertTrue(run.refusal(new PagePlan("ch1", 1, FIRST + 1, 2, 0, 5)).contains("firstPage=0x400001"));
    run.start(plan(2), TestInbox.<PagesDone>create().getRef());
    assertTrue(run.refusal(plan(2)).contains("already running"));
  }

  @Test
  void shouldFinishOnlyWhenEveryOneOfItsRequestsHasItsRecord() {
    PagePlanRun run = new PagePlanRun();
    TestInbox<PagesDone> inbox = TestInbox.create();
    run.start(plan(2), inbox.getRef());
    run.track(3);
    run.track(5);
    assertNull(run.recorded(record(4)), "not one of the plan's requests");
    assertNull(run.recorded(record(3)));
    assertNull(run.recorded(record(3)), "a request's record counts once");
    PagePlanRun.Finished done = run.recorded(record(5));
    assertNotNull(done);
    assertSame(inbox.getRef(), done.replyTo());
    assertEquals(List.of(3L, 5L), done.records().stream().map(RequestRecord::requestSeq).toList());
    assertNull(run.plan(), "the plan is over");
    assertNull(run.refusal(plan(1)), "another may start");
  }

  @Test
  void shouldStartAfreshWhenANewPlanFollowsAFinishedOne() {
    PagePlanRun run = new PagePlanRun();
    run.start(plan(1), TestInbox.<PagesDone>create().getRef());
    assertTrue(run.issue().last());
    run.track(1);
    assertNotNull(run.recorded(record(1)));
    assertNull(run.issue(), "the finished plan issues nothing more");
    run.start(new PagePlan("ch1", 0x0200, FIRST, 2, 9_000, 250), TestInbox.<PagesDone>create().getRef());
    PagePlanRun.Page first = run.issue();
    assertEquals(FIRST, first.request().pageAddress(), "from the new plan's first page");
    assertEquals(9_000, first.request().at());
    assertNull(run.recorded(record(1)), "request 1 was the old plan's");
    run.track(2);
    run.track(3);
    assertNull(run.recorded(record(2)));
    assertEquals(2, run.recorded(record(3)).records().size());
  }
}

package io.rackfabric.host.compute;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RouteAudienceTest {

  @Test
  void shouldTellWatchersThenFollowersWhenAChangeIsAnnounced() {
    RouteAudience<String, String, String> audience = new RouteAudience<>();
    audience.follow("f", "to-f");
    audience.watch("to-w");
    List<String> told = new ArrayList<>();
    audience.announce(told::add);
    assertEquals(List.of("to-w", "to-f"), told);
  }

  @Test
  void shouldHoldNoCallWhenNoChangeIsPending() {
    RouteAudience<String, String, String> audience = new RouteAudience<>();
    audience.watch("to-w");
    audience.announce(to -> { });
    assertFalse(audience.hold("call"), "watchers are not waited for");
  }

  @Test
  void shouldReleaseTheHeldCallWhenEveryFollowerFollowed() {
    RouteAudience<String, String, String> audience = new RouteAudience<>();
    audience.follow("a", "to-a");
    audience.follow("b", "to-b");
    audience.announce(to -> { });
    assertTrue(audience.hold("call-1"));
    assertFalse(audience.hold("call-2"), "one call is held at a time");
    assertNull(audience.followed("a"));
    assertEquals("call-1", audience.followed("b"));
    assertNull(audience.release(), "released once");
  }

  @Test
  void shouldReleaseTheHeldCallWhenTheLastPendingFollowerStopped() {
    RouteAudience<String, String, String> audience = new RouteAudience<>();
    audience.follow("a", "to-a");
    audience.announce(to -> { });
    audience.announce(to -> { });
    assertTrue(audience.hold("call"));
    assertEquals(2, audience.stopped("a"));
    assertEquals("call", audience.release());
  }
}

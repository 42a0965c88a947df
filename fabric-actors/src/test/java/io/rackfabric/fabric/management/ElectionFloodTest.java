package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.tlp.FabricMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ElectionFloodTest {

  private static final DataLinkState PROTECTED = DataLinkState.DL_PROTECTED;

  private static ElectionFlood switchFlood() {
    return new ElectionFlood(ConfigurationSpace.of(TestDevices.switchOf("sw", 12, 8, Set.of(1, 3, 5), PROTECTED)));
  }

  @Test
  void shouldPassAnImprovingClaimOutOfEveryTrainedPortButItsIngress() {
    ElectionFlood f = switchFlood();
    assertEquals(List.of(3, 5), f.onClaim(new ElectionClaim(1, 70), 1, 100));
    assertEquals(100, f.lastChangeAt());
    assertEquals(new ElectionClaim(1, 70), f.primary());
    assertNull(f.secondary());
    assertEquals(2, f.forwarded());
  }

  @Test
  void shouldKeepTheBestTwoWhenClaimsArriveAndSuppressWhatChangesNothing() {
    ElectionFlood f = switchFlood();
    f.onClaim(new ElectionClaim(1, 70), 1, 100);
    assertEquals(List.of(1, 5), f.onClaim(new ElectionClaim(0, 90), 3, 200), "a better claim goes on");
    assertEquals(List.of(1, 3), f.onClaim(new ElectionClaim(1, 60), 5, 300), "second best by serial: goes on");
    assertEquals(new ElectionClaim(0, 90), f.primary());
    assertEquals(new ElectionClaim(1, 60), f.secondary());
    assertEquals(List.of(), f.onClaim(new ElectionClaim(1, 70), 3, 400), "third: suppressed");
    assertEquals(List.of(), f.onClaim(new ElectionClaim(0, 90), 5, 500), "seen already: suppressed");
    assertEquals(2, f.suppressed());
    assertEquals(300, f.lastChangeAt(), "a suppressed claim is no change");
    assertEquals(5, f.received());
  }

  @Test
  void shouldGiveEveryDeviceTheSamePrimaryAndSecondaryWhateverTheOrderAndTimesOfTheClaims() {
    List<String> outcomes = new ArrayList<>();
    long suppressedSomewhere = 0;
    Random random = new Random(15);
    for (int run = 0; run < 20; run++) {
      Ring ring = new Ring();
      List<String> candidates = new ArrayList<>(List.of("a", "b", "c", "d"));
      Collections.shuffle(candidates, random);
      long at = 0;
      for (String c : candidates) {
        ring.claim(c, at);
        at += random.nextInt(3) * 150; // sometimes together, sometimes one hop or two apart
      }
      ring.run();
      for (Map.Entry<String, ElectionFlood> e : ring.devices.entrySet()) {
        outcomes.add(e.getKey() + " " + e.getValue().primary() + " " + e.getValue().secondary());
      }
      for (ElectionFlood f : ring.devices.values()) {
        suppressedSomewhere += f.suppressed();
      }
    }
    // a (priority 0) then c (priority 1, serial 3 < d's 4), at every device in every run
    for (String o : outcomes) {
      assertTrue(o.endsWith("ElectionClaim[priority=0, serial=1] ElectionClaim[priority=1, serial=3]"), o);
    }
    assertTrue(suppressedSomewhere > 0, "the flood stops claims that cannot win");
  }

  /**
   * Three 4-port switches in a ring (port 0 to the next's port 1), candidate endpoints a and b on
   * s1, c on s2, d on s3; a hop takes 100 ns.
   */
  private static final class Ring {
    private record Hop(long at, long order, String device, int ingress, ElectionClaim claim) {}

    final Map<String, ElectionFlood> devices = new LinkedHashMap<>();
    final Map<String, Candidacy> candidacies = new HashMap<>();
    final Map<String, String> links = new HashMap<>();
    final PriorityQueue<Hop> queue = new PriorityQueue<>((x, y) ->
        x.at != y.at ? Long.compare(x.at, y.at) : Long.compare(x.order, y.order));
    long order;

    Ring() {
      for (String s : List.of("s1", "s2", "s3")) {
        devices.put(s, new ElectionFlood(ConfigurationSpace.of(TestDevices.switchOf(s, 100 + s.charAt(1),
            4, s.equals("s1") ? Set.of(0, 1, 2, 3) : Set.of(0, 1, 2), PROTECTED))));
      }
      link("s1:0", "s2:1");
      link("s2:0", "s3:1");
      link("s3:0", "s1:1");
      int[] priorities = {0, 1, 1, 2};
      String[] at = {"s1:2", "s1:3", "s2:2", "s3:2"};
      String[] names = {"a", "b", "c", "d"};
      long[] serials = {1, 5, 3, 4};
      for (int i = 0; i < names.length; i++) {
        ElectionFlood f = new ElectionFlood(ConfigurationSpace.of(TestDevices.endpoint(names[i], serials[i],
            priorities[i], PROTECTED)));
        devices.put(names[i], f);
        candidacies.put(names[i], new Candidacy(f, priorities[i], serials[i]));
        link(names[i] + ":0", at[i]);
      }
    }

    private void link(String x, String y) {
      links.put(x, y);
      links.put(y, x);
    }

    void claim(String candidate, long at) {
      for (FabricMessage m : candidacies.get(candidate).claim(at)) {
        send(candidate, m.turns().get(0), (ElectionClaim) m.packet(), at);
      }
    }

    private void send(String device, int port, ElectionClaim claim, long at) {
      String[] peer = links.get(device + ":" + port).split(":");
      queue.add(new Hop(at + 100, order++, peer[0], Integer.parseInt(peer[1]), claim));
    }

    void run() {
      while (!queue.isEmpty()) {
        Hop h = queue.poll();
        for (int port : devices.get(h.device).onClaim(h.claim, h.ingress, h.at)) {
          send(h.device, port, h.claim, h.at);
        }
      }
    }
  }
}

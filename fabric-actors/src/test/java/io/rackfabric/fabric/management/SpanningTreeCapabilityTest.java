package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.management.SpanningTreeCapability.Claim;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SpanningTreeCapabilityTest {

  private static final long ST = SpanningTreeCapability.OFFSET;

  private static ConfigurationSpace device() {
    return ConfigurationSpace.of(TestDevices.switchOf("sw", 99, 8, Set.of(0), DataLinkState.DL_PROTECTED));
  }

  private static int[] claim(int priority, long serial) {
    return Claim.encode(new Claim(priority, serial));
  }

  @Test
  void shouldKeepTheSameTwoBestClaimsWhateverTheOrderTheyArrive() {
    List<int[]> claims = new ArrayList<>(List.of(claim(1, 5), claim(0, 9), claim(0, 3), claim(2, 1), claim(1, 2)));
    Random shuffle = new Random(15);
    for (int round = 0; round < 20; round++) {
      Collections.shuffle(claims, shuffle);
      ConfigurationSpace space = device();
      claims.forEach(c -> assertEquals(WriteOutcome.APPLIED, space.write(0, ST + 8, c)));
      claims.forEach(c -> space.write(0, ST + 8, c));
      int[] read = space.read(0, ST + 8, 6, 0).data();
      assertEquals(new Claim(0, 3), Claim.decode(read[0], read[1], read[2]), "primary, round " + round);
      assertEquals(new Claim(0, 9), Claim.decode(read[3], read[4], read[5]), "secondary, round " + round);
    }
  }

  @Test
  void shouldRankSerialsUnsignedWhenPrioritiesTie() {
    ConfigurationSpace space = device();
    space.write(0, ST + 8, claim(0, -1L));
    space.write(0, ST + 8, claim(0, 1L));
    assertEquals(new Claim(0, 1L), space.spanningTree().primary());
    assertEquals(new Claim(0, -1L), space.spanningTree().secondary());
  }

  @Test
  void shouldSayWhetherTheDeviceIsACandidateWhenItsSecondRegisterIsRead() {
    ConfigurationSpace candidate = ConfigurationSpace.of(TestDevices.endpoint("mmh", 1, 3, DataLinkState.DL_PROTECTED));
    assertEquals((3 << 8) | 1, candidate.read(0, ST + 4, 1, 0).data()[0]);
    assertEquals(0, device().read(0, ST + 4, 1, 0).data()[0]);
    assertEquals(SpanningTreeCapability.ID, device().read(0, ST, 1, 0).data()[0] & 0xFFFF);
  }

  @Test
  void shouldIgnoreAndCountWhenTheSecondaryOrTheHeaderIsWritten() {
    ConfigurationSpace space = device();
    assertEquals(WriteOutcome.READ_ONLY, space.write(0, ST + 0x14, claim(0, 1)));
    assertEquals(WriteOutcome.READ_ONLY, space.write(0, ST, new int[] {0}));
    assertEquals(WriteOutcome.READ_ONLY, space.write(0, ST + 8, new int[] {0, 0, 0}), "a claim without its valid bit");
    assertEquals(3, space.readOnlyWrites());
    assertNull(space.spanningTree().primary());
    assertNull(space.spanningTree().secondary());
  }
}

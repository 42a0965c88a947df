package io.rackfabric.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class LinkParametersTest {

  private static final double EPS = 1e-9;

  @Test
  void shouldUse8b10bRatesWhenGen1OrGen2() {
    assertEquals(2.5 * 0.8, new LinkParameters(1, 1, 0).bitsPerNs(), EPS);
    assertEquals(5.0 * 0.8 * 4, new LinkParameters(2, 4, 0).bitsPerNs(), EPS);
    assertEquals(0.8, new LinkParameters(2, 1, 0).encodingEfficiency(), EPS);
  }

  @Test
  void shouldUse128b130bRatesWhenGen3AndAbove() {
    assertEquals(8.0 * 4 * 128 / 130, new LinkParameters(3, 4, 0).bitsPerNs(), EPS);
    assertEquals(16.0 * 16 * 128 / 130, new LinkParameters(4, 16, 0).bitsPerNs(), EPS);
    assertEquals(32.0 * 8 * 128 / 130, new LinkParameters(5, 8, 0).bitsPerNs(), EPS);
    assertEquals(128.0 / 130, new LinkParameters(3, 1, 0).encodingEfficiency(), EPS);
  }

  @Test
  void shouldDoubleRateWithEachGenerationWhenLanesAreEqual() {
    double[] expected = {2.5, 5.0, 8.0, 16.0, 32.0};
    for (int gen = 1; gen <= 5; gen++) {
      assertEquals(expected[gen - 1], new LinkParameters(gen, 1, 0).gigaTransfersPerLane(), EPS);
    }
  }

  @Test
  void shouldScaleWithLanesWhenGenerationIsEqual() {
    double x1 = new LinkParameters(3, 1, 0).bitsPerNs();
    for (int lanes : new int[] {1, 2, 4, 8, 16}) {
      assertEquals(x1 * lanes, new LinkParameters(3, lanes, 0).bitsPerNs(), EPS);
    }
  }

  @Test
  void shouldSerializeInWholeNanosRoundedUpWhenSendingBytes() {
    // Gen1 x1: 2 bits/ns, so 100 bytes = 800 bits = 400 ns exactly.
    assertEquals(400, new LinkParameters(1, 1, 0).serializationNs(100));
    // Gen2 x1: 4 bits/ns
    assertEquals(200, new LinkParameters(2, 1, 0).serializationNs(100));
    // Gen3 x4: 84 bytes = 672 bits / 31.5077 = 21.33 -> 22
    assertEquals(22, new LinkParameters(3, 4, 0).serializationNs(84));
    // Gen3 x1: 64 bytes = 512 bits * 130 / 1024 = 65 exactly, no spurious round-up
    assertEquals(65, new LinkParameters(3, 1, 0).serializationNs(64));
    // Gen4 x16: 4104 bytes -> 32832 bits / 252.06 = 130.25 -> 131
    assertEquals(131, new LinkParameters(4, 16, 0).serializationNs(4104));
    // Gen5 x16: 1 byte still takes a whole nanosecond
    assertEquals(1, new LinkParameters(5, 16, 0).serializationNs(1));
    assertEquals(0, new LinkParameters(5, 16, 0).serializationNs(0));
  }

  @Test
  void shouldAddPropagationWhenComputingFlightTime() {
    LinkParameters p = new LinkParameters(3, 4, 5);
    assertEquals(22 + 5, p.flightNs(84));
    assertEquals(p.serializationNs(4104) + 5, p.flightNs(4104));
  }

  @Test
  void shouldDescribeLadonLinkWhenUsingGen3x4Defaults() {
    LinkParameters p = LinkParameters.gen3x4();
    assertEquals(3, p.generation());
    assertEquals(4, p.lanes());
    assertEquals(5, p.propagationNs());
    assertEquals(8.0 * 4 * 128 / 130, p.bitsPerNs(), EPS);
  }

  private static IllegalArgumentException bad(Executable construction) {
    return assertThrows(IllegalArgumentException.class, construction);
  }

  @Test
  void shouldRejectWithNameAndValueWhenLanesAreNotAPowerOfTwoUpTo16() {
    IllegalArgumentException e = bad(() -> new LinkParameters(3, 3, 0));
    assertEquals("lanes=3 not in {1,2,4,8,16}", e.getMessage());
    bad(() -> new LinkParameters(3, 0, 0));
    bad(() -> new LinkParameters(3, 32, 0));
  }

  @Test
  void shouldRejectWithNameAndValueWhenGenerationOrPropagationIsInvalid() {
    assertEquals("generation=0 not in [1,5]", bad(() -> new LinkParameters(0, 4, 0)).getMessage());
    assertEquals("generation=6 not in [1,5]", bad(() -> new LinkParameters(6, 4, 0)).getMessage());
    assertEquals("propagationNs=-1 is negative",
        bad(() -> new LinkParameters(3, 4, -1)).getMessage());
  }
}

package io.rackfabric.fabric.credit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rackfabric.fabric.tlp.TlpClass;
import org.junit.jupiter.api.Test;

class MulticastShadowTest {

  @Test
  void shouldReturnSpaceOnceWhenEveryCopyOfAMulticastWriteIsReleased() {
    MulticastShadow s = new MulticastShadow();
    s.replicated(TlpClass.POSTED, 3, 4); // one 64-byte write, three copies
    long headersBack = 0;
    long dataBack = 0;
    for (int copy = 0; copy < 3; copy++) {
      headersBack += s.absorbHeaders(TlpClass.POSTED, 1);
      dataBack += s.absorbData(TlpClass.POSTED, 4);
    }
    assertEquals(1, headersBack, "the write took one header credit");
    assertEquals(4, dataBack, "and its data credits once");
  }

  @Test
  void shouldPassReleasesThroughUntouchedWhenNothingIsShadowed() {
    MulticastShadow s = new MulticastShadow();
    assertEquals(5, s.absorbHeaders(TlpClass.COMPLETION, 5));
    s.replicated(TlpClass.POSTED, 2, 1);
    assertEquals(5, s.absorbHeaders(TlpClass.COMPLETION, 5), "classes are separate");
    assertEquals(4, s.absorbHeaders(TlpClass.POSTED, 5), "one posted release absorbed");
    assertEquals(5, s.absorbHeaders(TlpClass.POSTED, 5), "and only one");
  }
}

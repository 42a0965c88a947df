package io.rackfabric.host.failover;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rackfabric.host.failover.ControlWord.Kind;
import io.rackfabric.host.memory.Plane;
import org.junit.jupiter.api.Test;

/** The 4-byte words of the fail-over protocol as they sit in a mailbox. */
class ControlWordTest {

  @Test
  void shouldDecodeWhatItEncodedWhenAnyKindPlaneHostAndSequence() {
    int checked = 0;
    for (Kind kind : Kind.values()) {
      for (Plane plane : Plane.values()) {
        for (int host : new int[] {0, 1, 8, 127, 128, 255}) {
          for (int seq : new int[] {0, 1, 127, 128, 255}) {
            ControlWord word = new ControlWord(kind, host, plane, seq);

            byte[] bytes = word.encode();

            assertEquals(4, bytes.length);
            assertEquals(word, ControlWord.decode(bytes), word.toString());
            checked++;
          }
        }
      }
    }
    assertEquals(Kind.values().length * 2 * 6 * 5, checked);
  }

  @Test
  void shouldLayOutKindPlaneHostSequenceWhenEncoded() {
    // kind is 1-based so that a zeroed mailbox never reads as a word
    assertArrayEquals(new byte[] {1, 1, 3, 7},
        new ControlWord(Kind.FAILURE_REPORT, 3, Plane.SECONDARY, 7).encode());
    assertArrayEquals(new byte[] {2, 0, 8, 0},
        new ControlWord(Kind.RESPONSE, 8, Plane.PRIMARY, 0).encode());
    assertArrayEquals(new byte[] {3, 0, (byte) 200, (byte) 255},
        new ControlWord(Kind.ROUTE_CHANGE, 200, Plane.PRIMARY, 255).encode());
    assertArrayEquals(new byte[] {4, 1, 1, 9},
        new ControlWord(Kind.ACK, 1, Plane.SECONDARY, 9).encode());
  }

  @Test
  void shouldRefuseTheHostWhenOutsideEightBits() {
    IllegalArgumentException low = assertThrows(IllegalArgumentException.class,
        () -> new ControlWord(Kind.ACK, -1, Plane.PRIMARY, 0));
    assertEquals("host=-1 not in [0,255]", low.getMessage());
    IllegalArgumentException high = assertThrows(IllegalArgumentException.class,
        () -> new ControlWord(Kind.FAILURE_REPORT, 256, Plane.SECONDARY, 0));
    assertEquals("host=256 not in [0,255]", high.getMessage());
  }

  @Test
  void shouldWrapTheSequenceToEightBitsWhenLarger() {
    assertEquals(0, new ControlWord(Kind.ACK, 1, Plane.PRIMARY, 256).seq());
    assertEquals(1, new ControlWord(Kind.ACK, 1, Plane.PRIMARY, 257).seq());
    assertEquals(44, new ControlWord(Kind.ACK, 1, Plane.PRIMARY, 300).seq());
    assertEquals(255, new ControlWord(Kind.ACK, 1, Plane.PRIMARY, -1).seq());
    // a wrapped word equals the one with the 8-bit sequence, and survives the mailbox
    ControlWord wrapped = new ControlWord(Kind.ROUTE_CHANGE, 4, Plane.SECONDARY, 0x1_05);
    assertEquals(new ControlWord(Kind.ROUTE_CHANGE, 4, Plane.SECONDARY, 5), wrapped);
    assertEquals(wrapped, ControlWord.decode(wrapped.encode()));
  }

  @Test
  void shouldReturnNullWhenTheDataIsNotAWord() {
    assertNull(ControlWord.decode(null));
    assertNull(ControlWord.decode(new byte[0]));
    assertNull(ControlWord.decode(new byte[] {1, 0, 1}), "3 bytes");
    assertNull(ControlWord.decode(new byte[] {1, 0, 1, 1, 0}), "5 bytes");
    assertNull(ControlWord.decode(new byte[4]), "a zeroed mailbox");
    assertNull(ControlWord.decode(new byte[] {(byte) (Kind.values().length + 1), 0, 1, 1}), "kind past ACK");
    assertNull(ControlWord.decode(new byte[] {(byte) 0xFF, 0, 1, 1}), "kind 0xFF");
    assertNull(ControlWord.decode(new byte[] {1, 2, 1, 1}), "plane 2");
    assertNull(ControlWord.decode(new byte[] {1, (byte) 0xFF, 1, 1}), "plane 0xFF");
  }

  @Test
  void shouldReadTheHighHostsAndSequencesUnsignedWhenDecoded() {
    ControlWord word = ControlWord.decode(new byte[] {4, 1, (byte) 0xFE, (byte) 0x80});
    assertEquals(new ControlWord(Kind.ACK, 254, Plane.SECONDARY, 128), word);
  }
}

package io.rackfabric.host.messaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The checksummed header that lets a receiver refuse lost, stale or torn data. */
class DatagramHeaderTest {

  @Test
  void shouldRefuseAnAllZeroBufferAsDatagramZero() {
    assertNull(DatagramHeader.decode(new byte[4096], 0));
  }

  @Test
  void shouldRefuseTheDatagramWhenAnyByteIsFlippedOrTheSequenceDiffers() {
    byte[] payload = "twelve bytes".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    byte[] buffer = Arrays.copyOf(DatagramHeader.encode(41, payload), 4096);
    assertArrayEquals(payload, DatagramHeader.decode(buffer, 41));
    assertNull(DatagramHeader.decode(buffer, 42), "stale sequence");
    for (int i = 0; i < DatagramHeader.SIZE + payload.length; i++) {
      byte[] torn = buffer.clone();
      torn[i] ^= 1;
      assertNull(DatagramHeader.decode(torn, 41), "byte " + i + " flipped");
    }
  }
}

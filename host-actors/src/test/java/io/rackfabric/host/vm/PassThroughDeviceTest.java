package io.rackfabric.host.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.vm.PassThroughDevice.State;
import org.junit.jupiter.api.Test;

class PassThroughDeviceTest {

  @Test
  void shouldBorrowOnlyWhenTheGuestSetsBusMasterEnableAndReturnWhenItReleases() {
    PassThroughDevice d = new PassThroughDevice("gpu1", "guest");
    assertFalse(d.commandWritten(0x2), "memory space only: not borrowed yet");
    assertEquals(State.ATTACHED, d.state());
    assertTrue(d.commandWritten(0x6), "Bus Master Enable asks for the borrow");
    assertEquals(State.ENABLING, d.state());
    assertFalse(d.commandWritten(0x6), "asked once");
    d.borrowAnswered(true);
    assertEquals(State.BORROWED, d.state());
    assertEquals(0x6, d.readBack(0x6));
    assertTrue(d.released());
    assertEquals(State.RETURNED, d.state());
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> d.commandWritten(0x6));
    assertTrue(e.getMessage().contains("device=gpu1 was returned by vm=guest"), e.getMessage());
  }

  @Test
  void shouldStayAttachedAndAskAgainWhenTheBorrowIsRefused() {
    PassThroughDevice d = new PassThroughDevice("gpu1", "guest");
    assertTrue(d.commandWritten(0x6));
    d.borrowAnswered(false);
    assertEquals(State.ATTACHED, d.state());
    assertEquals(0x2, d.readBack(0x6), "the guest reads Bus Master Enable back as 0");
    assertTrue(d.commandWritten(0x6), "a later enable asks again");
    d.borrowAnswered(true);
    assertEquals(State.BORROWED, d.state());
  }

  @Test
  void shouldEndNoLoanWhenTheGuestReleasesADeviceItNeverEnabledOrWasRefused() {
    assertFalse(new PassThroughDevice("gpu2", "guest").released());
    PassThroughDevice refused = new PassThroughDevice("gpu2", "guest");
    refused.commandWritten(0x4);
    refused.borrowAnswered(false);
    assertFalse(refused.released());
  }
}

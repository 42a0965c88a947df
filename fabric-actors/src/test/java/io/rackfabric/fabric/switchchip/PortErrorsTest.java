package io.rackfabric.fabric.switchchip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.LinkTimers;
import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.testing.RecordingLinkListener;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import org.junit.jupiter.api.Test;

class PortErrorsTest {

  private static final int REQ = Bdf.of(2, 0, 0);
  private static final int PORT = Bdf.of(1, 3, 0);

  private final PortErrors errors = new PortErrors();

  private static LinkEnd idleLink() {
    return new LinkEnd(LinkParameters.gen3x4(), new FcCredits(8, 64, 8, 0, 8, 64), LinkTimers.defaults(),
        true, 1, new RecordingLinkListener(), () -> 0);
  }

  @Test
  void shouldAnswerWithAnUnsupportedRequestWhenARequestIsRefused() {
    Completion ur = errors.refuse(new MemRead(REQ, 9, 0, 0x5000L, 64, 0, 1), PORT, 700);

    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, ur.status());
    assertEquals(PORT, ur.completer());
    assertEquals(REQ, ur.requester());
    assertEquals(9, ur.tag());
    assertEquals(700, ur.originAt());
  }

  @Test
  void shouldDropAndCountWhenAPostedWriteIsRefused() {
    assertNull(errors.refuse(new MemWrite(REQ, 1, 0, 0x5000L, 64, null, 0, 1), PORT, 700));

    PortStats s = errors.stats("sw.a", idleLink(), 0);
    assertEquals(1, s.droppedPosted());
    assertEquals(0, s.unsupported());
  }

  @Test
  void shouldSendAFatalErrorWhenTheLinkGoesDown() {
    ErrorMessage aer = errors.linkDown(PORT, ErrorMessage.Cause.DLLP_TIMEOUT, 1234);

    assertEquals(new ErrorMessage(PORT, ErrorMessage.Severity.FATAL, ErrorMessage.Cause.DLLP_TIMEOUT, 1234), aer);
    assertEquals(1, errors.stats("sw.a", idleLink(), 0).aerSent());
  }

  @Test
  void shouldReportEveryCounterWithTheLinksWhenAskedForStats() {
    errors.refuse(new MemRead(REQ, 9, 0, 0x5000L, 64, 0, 1), PORT, 700);
    errors.droppedSilently();
    errors.lost(3);

    PortStats s = errors.stats("sw.a", idleLink(), 5);

    assertEquals("sw.a", s.name());
    assertEquals(1, s.unsupported());
    assertEquals(1, s.silentDrops());
    assertEquals(3, s.lostOnLinkDown());
    assertEquals(5, s.ntbRequesterTableFull());
  }
}

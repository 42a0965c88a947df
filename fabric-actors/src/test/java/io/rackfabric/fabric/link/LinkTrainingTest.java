package io.rackfabric.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.testing.RecordingLinkListener;
import io.rackfabric.fabric.tlp.ErrorMessage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Link management against a recording end: what it sends and what it reports, in one log so the
 * order shows. Wall and model clocks are fields the test sets.
 */
class LinkTrainingTest {

  private static final long MS = 1_000_000L;
  private static final LinkTimers TIMERS = LinkTimers.defaults();
  private static final FcCredits BUFFERS = new FcCredits(8, 64, 8, 0, 8, 64);

  private long wall;
  private long modelNow;
  private final List<String> log = new ArrayList<>();
  private final LinkCounters counters = new LinkCounters();
  private final LinkStateMachine machine = new LinkStateMachine(TIMERS, true, 1);

  private final RecordingLinkListener listener = new RecordingLinkListener() {
    @Override
    public void send(LinkFrame frame) {
      super.send(frame);
      log.add("send " + frame.getClass().getSimpleName());
    }
  };
  private final List<LinkFrame> frames = listener.sent;

  private final LinkTraining training = new LinkTraining(machine, new ReceiveCredits(BUFFERS), counters,
      listener, () -> wall, () -> modelNow, new LinkTraining.Transitions() {
        @Override
        public void down(ErrorMessage.Cause cause, long at) {
          log.add("down " + cause + " at " + at);
        }

        @Override
        public void up() {
          log.add("up");
        }

        @Override
        public void opened() {
          log.add("opened");
        }

        @Override
        public void partnerCredits(FcCredits limits) {
          log.add("credits " + limits.postedHeader());
        }
      });

  private void bringUp() {
    training.enable();
    training.onInitFc(new InitFc(BUFFERS, 99, machine.training(), 0));
    assertEquals(DataLinkState.DL_ACTIVE, machine.state());
    log.clear();
    frames.clear();
  }

  @Test
  void shouldAdvertiseTheReceiveBuffersWhenEnabled() {
    modelNow = 42;
    training.enable();

    InitFc init = (InitFc) frames.get(0);
    assertEquals(BUFFERS, init.limits());
    assertEquals(machine.training(), init.training());
    assertEquals(42, init.sentAt());
    assertEquals(1, counters.dllpsSent);
  }

  @Test
  void shouldTakeThePartnerCreditsBeforeReportingUpWhenThePartnerHasOurs() {
    training.enable();
    log.clear();

    training.onInitFc(new InitFc(new FcCredits(5, 0, 5, 0, 5, 0), 99, machine.training(), 0));

    assertEquals(List.of("credits 5", "send InitFc", "up"), log);
    assertEquals(1, counters.linkUps);
  }

  @Test
  void shouldFinishTrainingWhenATlpArrivesInPlaceOfTheLastInitFc() {
    training.enable();
    training.onInitFc(new InitFc(BUFFERS, 99, 0, 0)); // the partner has not seen ours yet
    assertEquals(DataLinkState.DL_INIT, machine.state());

    training.onTlpWhileTraining();

    assertEquals(DataLinkState.DL_ACTIVE, machine.state());
  }

  @Test
  void shouldReportDownBeforeTellingThePartnerWhenDisabledAtAFaultTime() {
    bringUp();
    modelNow = 900;

    training.disable(500);

    assertEquals(List.of("down SURPRISE_DOWN at 500", "send PhysicalDown"), log);
    assertEquals(500, ((PhysicalDown) frames.get(0)).sentAt());
  }

  @Test
  void shouldGoDownForReplayRolloverWhenTheRetryGivesUp() {
    bringUp();

    training.retrain(700);

    assertEquals(List.of("down REPLAY_ROLLOVER at 700", "send PhysicalDown"), log);
  }

  @Test
  void shouldTimeOutAtTheEndsModelTimeWhenThePartnerFallsSilent() {
    bringUp();
    modelNow = 1234;
    wall = TIMERS.dllpTimeout().toNanos() + MS;

    training.tick();

    assertEquals("down DLLP_TIMEOUT at 1234", log.get(0));
  }

  @Test
  void shouldCountTrafficAsLivenessWhenTheNextTickComes() {
    bringUp();
    training.received();
    wall = TIMERS.dllpTimeout().toNanos() - MS;
    training.tick();
    wall = TIMERS.dllpTimeout().toNanos() + MS;

    training.tick();

    assertTrue(log.stream().noneMatch(e -> e.startsWith("down")), log.toString());
    assertEquals(DataLinkState.DL_ACTIVE, machine.state());
  }

  @Test
  void shouldSendAKeepaliveWhenNothingWentOutForAKeepaliveInterval() {
    bringUp();
    wall = TIMERS.keepalive().toNanos();

    training.tick();

    assertTrue(((UpdateFc) frames.get(0)).keepalive());
  }
}

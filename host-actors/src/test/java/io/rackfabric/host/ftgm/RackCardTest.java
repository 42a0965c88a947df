package io.rackfabric.host.ftgm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.host.nic.SriovNic;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class RackCardTest {

  static final ActorTestKit testKit = ActorTestKit.create();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  record Sent(SriovNic.Command command, long at) {}

  final List<Sent> sent = new ArrayList<>();
  final RackCard.Channel channel = new RackCard.Channel() {
    @Override
    public <C extends SriovNic.Command & WireMessage> void tell(C command, long at) {
      sent.add(new Sent(command, at));
    }
  };
  final GuestAddress daemon = new GuestAddress("mh",
      testKit.<MemoryEndpoint.Command>createTestProbe().ref(), testKit.<GuestCall>createTestProbe().ref());
  final RackCard card = new RackCard("nic", channel, VfCopyTest.copy(), daemon);

  @Test
  void shouldSendEachStepStampedWithItsModelTimeWhenTheDaemonRecovers() {
    card.reset(100);
    card.reload(200);
    VfCopy vfs = VfCopyTest.copy();
    vfs.restoreAll();
    RackCard restoring = new RackCard("nic", channel, vfs, daemon);
    String described = restoring.restoreTables(300);

    assertEquals(List.of(new Sent(new SriovNic.ResetCard(100), 100), new Sent(new SriovNic.ReloadFirmware(200), 200),
        new Sent(new SriovNic.RestoreVfs(vfs.table(), 300), 300)), sent);
    assertEquals("2 VFs from the MH's copy", described);
    assertEquals("nic", card.name());
  }

  @Test
  void shouldHandTheMagicWordsAnswerToTheWaitingStepOnceWhenTheCardAnswers() {
    List<Boolean> answers = new ArrayList<>();
    card.checkMagicWord(400, 1_200, answers::add);

    card.magicWordAnswered(false);
    card.magicWordAnswered(true);

    assertEquals(List.of(new Sent(new SriovNic.CheckMagicWord(400, 1_200, daemon), 400)), sent);
    assertEquals(List.of(false), answers, "a second answer finds nobody waiting");
  }
}

package io.rackfabric.host.ftgm;

import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.host.nic.SriovNic;
import java.util.function.Consumer;

/**
 * The rack's NIC as {@link FaultToleranceDaemon}'s card: each step (reset, reload, the VF table,
 * the magic word) a message to the NIC's actor, stamped with the step's model time. The magic
 * word's answer comes back later, as a message to {@link NicFaultDaemon}, which hands it over with
 * {@link #magicWordAnswered}.
 */
final class RackCard implements FaultToleranceDaemon.Card {

  /** How a step reaches the card at its model time: on the guest channel, or directly. */
  interface Channel {
    <C extends SriovNic.Command & WireMessage> void tell(C command, long at);
  }

  private final String nic;
  private final Channel channel;
  private final VfCopy vfs;
  private final GuestAddress daemon;
  /** The daemon's step waiting for the magic word's answer; else null. */
  private Consumer<Boolean> magicAnswer;

  /**
   * @param vfs the PF driver's copy of the VF table, restored as it stands at the step
   * @param daemon where the card answers the magic word check
   */
  RackCard(String nic, Channel channel, VfCopy vfs, GuestAddress daemon) {
    this.nic = nic;
    this.channel = channel;
    this.vfs = vfs;
    this.daemon = daemon;
  }

  @Override
  public String name() {
    return nic;
  }

  @Override
  public void reset(long at) {
    channel.tell(new SriovNic.ResetCard(at), at);
  }

  @Override
  public void reload(long at) {
    channel.tell(new SriovNic.ReloadFirmware(at), at);
  }

  @Override
  public String restoreTables(long at) {
    channel.tell(new SriovNic.RestoreVfs(vfs.table(), at), at);
    return vfs.describe();
  }

  @Override
  public void checkMagicWord(long writtenAt, long readAt, Consumer<Boolean> cleared) {
    magicAnswer = cleared;
    channel.tell(new SriovNic.CheckMagicWord(writtenAt, readAt, daemon), writtenAt);
  }

  /** The card answered the magic word: the waiting step, if any, learns it (once). */
  void magicWordAnswered(boolean cleared) {
    Consumer<Boolean> answer = magicAnswer;
    magicAnswer = null;
    if (answer != null) {
      answer.accept(cleared);
    }
  }
}

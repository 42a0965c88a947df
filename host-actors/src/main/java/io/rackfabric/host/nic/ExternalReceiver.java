package io.rackfabric.host.nic;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.fabric.wire.WireMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * The server outside the rack at the far end of the NIC's 10 GbE link (the fifth server of
 * Ladon section 5.1): it takes every frame's model arrival time, size and source VF, and its
 * own wall clock when it took the frame (for wall-clock inter-arrival times), into per-VF
 * statistics of fixed size ({@link ArrivalLog}).
 */
public final class ExternalReceiver extends AbstractBehavior<ExternalReceiver.Command> {

  public sealed interface Command permits DeliverFrame, GetReport, GetStream, AwaitFrames {}

  /** A frame off the wire. */
  public record DeliverFrame(EthernetFrame frame) implements Command, WireMessage {}

  /** Asks for everything received so far: a {@link ReceiverReport}. */
  public record GetReport(ActorRef<ReceiverReport> replyTo) implements Command, WireMessage {}

  /**
   * Asks for VF {@code vf}'s stream so far: a {@link StreamSummary}, {@code due} packets numbered
   * from 0 expected of it (what its sender sent or skipped). One reply per stream keeps each below
   * Artery's frame size, however many streams and packets.
   */
  public record GetStream(int vf, long due, ActorRef<StreamSummary> replyTo) implements Command, WireMessage {}

  /** Replies once {@code frames} frames have arrived in all (at once if they have). */
  public record AwaitFrames(long frames, ActorRef<FramesReached> replyTo) implements Command, WireMessage {}

  public record FramesReached(String receiver, long frames) implements WireMessage {}

  private final String id;
  private final ArrivalLog log = new ArrivalLog();
  private final List<AwaitFrames> waiters = new ArrayList<>();

  public static Behavior<Command> create(String id) {
    return Behaviors.setup(ctx -> new ExternalReceiver(ctx, id));
  }

  private ExternalReceiver(ActorContext<Command> context, String id) {
    super(context);
    this.id = id;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(DeliverFrame.class, this::onDeliverFrame)
        .onMessage(GetReport.class, this::onGetReport)
        .onMessage(GetStream.class, this::onGetStream)
        .onMessage(AwaitFrames.class, this::onAwaitFrames)
        .build();
  }

  private Behavior<Command> onDeliverFrame(DeliverFrame msg) {
    log.record(msg.frame(), System.nanoTime());
    answerWaiters();
    return this;
  }

  private Behavior<Command> onGetReport(GetReport msg) {
    msg.replyTo().tell(log.report(id));
    return this;
  }

  private Behavior<Command> onGetStream(GetStream msg) {
    msg.replyTo().tell(log.stream(msg.vf(), msg.due()));
    return this;
  }

  private Behavior<Command> onAwaitFrames(AwaitFrames msg) {
    waiters.add(msg);
    answerWaiters();
    return this;
  }

  private void answerWaiters() {
    long frames = log.frames();
    waiters.removeIf(w -> {
      if (frames < w.frames()) {
        return false;
      }
      w.replyTo().tell(new FramesReached(id, frames));
      return true;
    });
  }
}

package io.rackfabric.fabric.time;

import akka.actor.typed.ActorRef;

/** One component as the time keeper's books ({@link SyncBook}) hold it: its counts, clock and grant. */
final class SyncMember {
  final int index;
  final ActorRef<TimeKeeper.Grant> ref;
  /** Graph index of each of its out-channels' receivers. */
  final int[] targets;
  long[] sentTo;
  long received;
  long next;
  /** Its earliest pending event that is not background. */
  long nextBusy;
  long stragglers;
  long now = Long.MIN_VALUE;
  boolean running = true;
  /** Stopped as dead unannounced: its last sends count toward its receivers' lenience. */
  boolean unannounced;
  boolean outstanding;
  long grantRound = -2;
  /** Whether it has received exactly what was sent to it (see {@link SyncBook}'s recheck). */
  boolean balanced = true;
  /** 0 for the first component of its name, then one more per restart. */
  int incarnation;
  /** The model time its clock starts at: {@code Long.MIN_VALUE}, or its restart's time. */
  long since = Long.MIN_VALUE;
  /** What was sent to its name before it was expected back: its predecessors' share of the inflow. */
  long inflowBefore;

  SyncMember(int index, ActorRef<TimeKeeper.Grant> ref, int[] targets) {
    this.index = index;
    this.ref = ref;
    this.targets = targets;
  }

  /** Its earliest pending event as the book sees it: none before its clock's start. */
  long at(long time) {
    return Math.max(time, since);
  }

  /** Whether its first event may be handled: a background one only before {@code background}. */
  boolean mayStart(long background) {
    return nextBusy == next || next < background;
  }
}

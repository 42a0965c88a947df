package io.rackfabric.persistence.controller;

import akka.actor.typed.ActorRef;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Request;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The controller's operations between acceptance and their own journal: each was decided, its
 * events numbered ahead of the journal and handed to the backup, and it is persisted here only
 * once the backup holds it and every one before it. So the master's journal is always a prefix of
 * what the backup acknowledged; a master fenced while an operation is on the link keeps nothing
 * the backup lacks, and the two journals never hold different events under one number.
 *
 * <p>Operations are decided against the {@linkplain #projected projected} state, the persisted one
 * with every pending operation's events applied, so two pending operations never take the same
 * VF or page. After one replication failure nothing more is taken ({@link #failure()}): the
 * backup may hold events this journal lacks, and numbering on from here could give two different
 * events one sequence number.
 *
 * <p>Not thread-safe: the controller's own, used on its thread.
 */
final class PendingOperations {

  /** One pending operation; {@code repeats} are resends of the same request that wait with it. */
  static final class Entry {
    final Operation operation;
    final long firstSeqNr;
    final List<ControllerEvent> events;
    final List<ActorRef<OperationResult>> repeats = new ArrayList<>();
    private boolean replicated;
    /** Set from the replication step's own thread once the backup holds it (see {@link #backupHolds}). */
    private volatile boolean held;

    private Entry(Operation operation, long firstSeqNr, List<ControllerEvent> events) {
      this.operation = operation;
      this.firstSeqNr = firstSeqNr;
      this.events = List.copyOf(events);
    }

    long lastSeqNr() {
      return firstSeqNr + events.size() - 1;
    }

    /**
     * The backup holds this entry; its answer may still be on its way to the controller (queued
     * behind a write of the controller's own). Safe from any thread.
     */
    void backupHolds() {
      held = true;
    }

    /** Model time of its last event. */
    long at() {
      return events.get(events.size() - 1).at();
    }
  }

  private final ArrayDeque<Entry> queue = new ArrayDeque<>();
  private ControllerState projected; // with the queue's events applied; meaningful while non-empty
  private long projectedLastSeqNr;
  private String failure;

  /** The state new operations are decided against. */
  ControllerState projected(ControllerState persisted) {
    return queue.isEmpty() ? persisted : projected;
  }

  int size() {
    return queue.size();
  }

  /** Why this controller takes nothing more, or null while its replication has never failed. */
  String failure() {
    return failure;
  }

  /**
   * Takes a decided operation: its events are numbered after the journal's and every pending
   * operation's.
   *
   * @param persistedLastSeqNr the journal's last sequence number
   * @throws IllegalStateException after a failure, or for no events
   */
  Entry add(Operation operation, List<ControllerEvent> events, ControllerState persisted,
      long persistedLastSeqNr) {
    if (failure != null) {
      throw new IllegalStateException("replication failed before: " + failure);
    }
    if (events.isEmpty()) {
      throw new IllegalStateException("operation=" + operation + " has no events to replicate");
    }
    ControllerState base = projected(persisted);
    long first = (queue.isEmpty() ? persistedLastSeqNr : projectedLastSeqNr) + 1;
    Entry entry = new Entry(operation, first, events);
    for (ControllerEvent e : events) {
      base = base.apply(e);
    }
    projected = base;
    projectedLastSeqNr = entry.lastSeqNr();
    queue.addLast(entry);
    return entry;
  }

  /**
   * The pending entry of {@code client}'s request {@code requestSeq}, or null: a resend that
   * arrives while the original is on the link waits for it rather than being acknowledged early.
   */
  Entry pendingRequest(String client, long requestSeq) {
    for (Entry e : queue) {
      if (e.operation instanceof Request r && r.client().equals(client) && r.requestSeq() == requestSeq) {
        return e;
      }
    }
    return null;
  }

  /**
   * The backup holds the entry numbered from {@code firstSeqNr}. Returns the entries now ready to
   * persist, in order (the oldest ones, each replicated or known to be held by the backup
   * ({@link Entry#backupHolds}), removed from the queue; empty when an older one is still on the
   * link. So the answers that queued up while the controller wrote go into its next write together,
   * and each of their own messages then finds nothing left to do.
   */
  List<Entry> replicated(long firstSeqNr) {
    for (Entry e : queue) {
      if (e.firstSeqNr == firstSeqNr) {
        e.replicated = true;
      }
    }
    List<Entry> ready = new ArrayList<>();
    while (!queue.isEmpty() && (queue.peekFirst().replicated || queue.peekFirst().held)) {
      ready.add(queue.pollFirst());
    }
    return ready;
  }

  /**
   * The replication of the entry numbered from {@code firstSeqNr} failed. When it is still pending,
   * every pending entry is returned (none of them may be persisted now: they follow it) and the
   * queue takes nothing more. A failure of an entry no longer pending changes nothing.
   */
  List<Entry> failed(long firstSeqNr, String why) {
    boolean pending = queue.stream().anyMatch(e -> e.firstSeqNr == firstSeqNr);
    if (!pending) {
      return List.of();
    }
    return failAll("seqNr " + firstSeqNr + ": " + why);
  }

  /** Takes nothing more, for {@code why}; returns every pending entry, none of which may be persisted. */
  List<Entry> failAll(String why) {
    failure = why;
    List<Entry> dropped = new ArrayList<>(queue);
    queue.clear();
    projected = null;
    return dropped;
  }
}

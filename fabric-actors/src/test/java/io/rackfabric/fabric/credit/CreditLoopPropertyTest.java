package io.rackfabric.fabric.credit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.rackfabric.fabric.tlp.TlpClass;
import io.rackfabric.fabric.tlp.Tlps;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A sender ({@link CreditLedger}) and a receiver ({@link ReceiveBuffer}) wired back to back, driven
 * by a seeded random schedule: TLPs of every class and size, credit returns batched by the
 * receiver's own rule, UpdateFCs delivered out of order. No keepalive is modelled: the batching
 * rule alone must keep the loop going.
 */
class CreditLoopPropertyTest {

  private static final int LARGEST_TLP_CREDITS = Tlps.MAX_LENGTH / Tlps.BYTES_PER_DATA_CREDIT;

  private record Pkt(TlpClass c, int data, long id) {}

  private static final class Loop {
    final FcCredits size;
    final CreditLedger tx = new CreditLedger();
    final ReceiveBuffer rx;
    final List<ArrayDeque<Pkt>> queues =
        List.of(new ArrayDeque<>(), new ArrayDeque<>(), new ArrayDeque<>());
    final ArrayDeque<Pkt> wire = new ArrayDeque<>();
    final List<FcCredits> updates = new ArrayList<>();
    final List<Pkt> held = new ArrayList<>();
    long sent;
    long delivered;
    long updatesSent;
    long nextId;

    Loop(FcCredits size) {
      this.size = size;
      this.rx = new ReceiveBuffer(size);
      tx.initialise(rx.advertise()); // InitFC
    }

    void offer(Random rnd) {
      TlpClass c = TlpClass.ALL[rnd.nextInt(3)];
      int largest = (int) Math.min(LARGEST_TLP_CREDITS, size.data(c));
      // Mostly small TLPs, some of the largest size that fits: the mix that strands credit.
      int data = rnd.nextInt(4) == 0 ? largest : rnd.nextInt(largest + 1);
      queues.get(c.ordinal()).add(new Pkt(c, data, nextId++));
    }

    void pump() {
      boolean progress = true;
      while (progress) {
        progress = false;
        for (ArrayDeque<Pkt> q : queues) {
          Pkt head = q.peek();
          if (head != null && tx.canSend(head.c(), head.data())) {
            tx.consume(head.c(), head.data());
            wire.add(q.poll());
            sent++;
            progress = true;
          }
        }
      }
    }

    void deliverTlp() {
      Pkt p = wire.poll();
      if (p == null) {
        return;
      }
      if (!rx.arrive(p.c(), p.data())) {
        fail("receiver overflow: " + p + " with buffers " + size);
      }
      held.add(p);
      delivered++;
    }

    void freeOne(Random rnd) {
      if (held.isEmpty()) {
        return;
      }
      Pkt p = held.remove(rnd.nextInt(held.size()));
      if (rx.free(p.c(), 1, p.data())) {
        updates.add(rx.advertise());
        updatesSent++;
      }
    }

    void deliverUpdate(Random rnd) {
      if (updates.isEmpty()) {
        return;
      }
      tx.update(updates.remove(rnd.nextInt(updates.size()))); // any order: stale ones are harmless
      pump();
    }

    boolean quiescent() {
      return wire.isEmpty() && updates.isEmpty() && held.isEmpty();
    }

    int queued() {
      return queues.get(0).size() + queues.get(1).size() + queues.get(2).size();
    }

    void checkNotStuck(String when) {
      if (!quiescent()) {
        return;
      }
      for (ArrayDeque<Pkt> q : queues) {
        Pkt head = q.peek();
        if (head != null && !tx.canSend(head.c(), head.data())) {
          fail(when + ": sender blocked on " + head + " while the receiver holds nothing; buffers "
              + size + ", available header=" + tx.availableHeader(head.c()) + " data="
              + tx.availableData(head.c()));
        }
      }
    }
  }

  private static FcCredits randomSize(Random rnd) {
    long[] h = new long[3];
    long[] d = new long[3];
    for (int i = 0; i < 3; i++) {
      h[i] = 1 + rnd.nextInt(40);
      switch (rnd.nextInt(4)) {
        case 0 -> d[i] = 1 + rnd.nextInt(LARGEST_TLP_CREDITS); // smaller than the largest TLP
        case 1 -> d[i] = LARGEST_TLP_CREDITS + rnd.nextInt(LARGEST_TLP_CREDITS / 3 + 1); // 256..341
        default -> d[i] = 1 + rnd.nextInt(2048);
      }
    }
    return new FcCredits(h[0], d[0], h[1], d[1], h[2], d[2]);
  }

  @Test
  void shouldNeverDeadlockOrOverflowWhenReceiverFreesEverythingItGets() {
    Random rnd = new Random(0x5EEDC0FFEEL);
    long totalSent = 0;
    for (int trial = 0; trial < 400; trial++) {
      Loop loop = new Loop(randomSize(rnd));
      for (int step = 0; step < 2000; step++) {
        switch (rnd.nextInt(6)) {
          case 0 -> {
            if (loop.queued() < 24) {
              loop.offer(rnd);
            }
          }
          case 1 -> loop.pump();
          case 2 -> loop.deliverTlp();
          case 3, 4 -> loop.freeOne(rnd);
          default -> loop.deliverUpdate(rnd);
        }
        loop.checkNotStuck("trial " + trial + " step " + step);
      }
      // Stop offering; the receiver frees everything it gets. Everything must get through.
      for (int round = 0; round < 100_000 && (loop.queued() > 0 || !loop.quiescent()); round++) {
        loop.pump();
        while (!loop.wire.isEmpty()) {
          loop.deliverTlp();
        }
        while (!loop.held.isEmpty()) {
          loop.freeOne(rnd);
        }
        while (!loop.updates.isEmpty()) {
          loop.deliverUpdate(rnd);
        }
        loop.checkNotStuck("trial " + trial + " drain round " + round);
      }
      assertEquals(0, loop.queued(), "trial " + trial + ": TLPs left behind, buffers " + loop.size);
      assertEquals(loop.sent, loop.delivered);
      totalSent += loop.sent;
    }
    assertTrue(totalSent > 100_000, "the schedule exercised the loop: " + totalSent);
  }

  @Test
  void shouldBatchCreditReturnsWhenBuffersAreLarge() {
    // The batching rule must still batch: with large buffers far fewer UpdateFCs than TLPs.
    Random rnd = new Random(42);
    Loop loop = new Loop(new FcCredits(64, 4096, 64, 4096, 64, 4096));
    for (int i = 0; i < 20_000; i++) {
      if (loop.queued() < 24) {
        loop.offer(rnd);
      }
      loop.pump();
      loop.deliverTlp();
      loop.freeOne(rnd);
      loop.deliverUpdate(rnd);
      loop.checkNotStuck("step " + i);
    }
    assertTrue(loop.delivered > 10_000, "delivered " + loop.delivered);
    assertTrue(loop.updatesSent * 4 < loop.delivered,
        loop.updatesSent + " UpdateFCs for " + loop.delivered + " TLPs");
  }
}

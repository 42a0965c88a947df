package io.rackfabric.fabric.rootcomplex;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.function.IntSupplier;

/**
 * A root complex relaying peer-to-peer requests (Device Lending sections 6 and 7.1): with the IOMMU
 * on, a switch redirects a request between two of its devices up to the root (ACS), whose IOMMU
 * resolves the address and sends the request back down. A posted write goes down as it came, at
 * the translated address. A read is re-issued as reads of at most {@code read-split} bytes, split
 * at multiples of it (the paper's observation: a 256-byte read leaves the root as four 64-byte
 * ones), under the root's own ID and tags; their data goes back to the original requester as
 * completions of its request, at their offsets in it, which its tag's reassembly puts together.
 * Every crossing of the root (the request down, each completion up) takes the relay latency.
 *
 * <p>The root keeps at most {@code max-open-reads} split reads open; the rest wait in arrival order
 * and go when a completion frees a tag. A request whose translated address its link does not lead
 * to is refused: Unsupported Request for a read, dropped and counted for a write. Not thread-safe:
 * the root endpoint actor's own.
 */
public final class RootRelay {

  /** The relay's first tag: above the 256 a requester's 8-bit tags use (PCIe's 10-bit tags). */
  public static final int FIRST_TAG = 256;

  /** Where the relay's TLPs go: the root's link, at model time {@code at}. */
  @FunctionalInterface
  public interface Outbound {
    void offer(Tlp tlp, long at);
  }

  /** Whether the root's own memory holds {@code length} bytes at {@code address}. */
  @FunctionalInterface
  public interface OwnMemory {
    boolean claims(long address, int length);
  }

  /**
   * A root's relaying: the address windows its link leads to (what the bridge it is linked to
   * claims below it) and its address translation (the IOMMU).
   */
  public record Setup(List<AddressRange> below, AddressTranslation translation) {
    public Setup {
      below = List.copyOf(below);
      Objects.requireNonNull(translation, "translation");
    }

    /** Relaying into {@code below} without translation (the IOMMU passes addresses through). */
    public static Setup untranslated(List<AddressRange> below) {
      return new Setup(below, AddressTranslation.identity());
    }
  }

  /** A relayed read: the original request, and whether an error answered it already. */
  private static final class Relayed {
    final MemRead request;
    boolean failed;

    Relayed(MemRead request) {
      this.request = request;
    }
  }

  /** One split read: {@code offset} into the original request, due no earlier than {@code readyAt}. */
  private record Piece(Relayed read, int offset, long address, int length, long readyAt) {}

  private final RootRelaySettings settings;
  private final Setup setup;
  private final IntSupplier bdf;
  private final OwnMemory own;
  private final Outbound out;
  /** The split read open on tag {@code FIRST_TAG + i}, or null. */
  private final Piece[] open;
  private final ArrayDeque<Piece> waiting = new ArrayDeque<>();
  private int openCount;
  private int nextSlot;
  private long readsRelayed;
  private long writesRelayed;
  private long splitReadsIssued;
  private long readsRefused;
  private long writesDropped;

  /**
   * @param bdf the root's ID, the requester of its split reads and completer of its refusals
   * @param own the root's own memory, which the relay leaves to the root
   */
  public RootRelay(RootRelaySettings settings, Setup setup, IntSupplier bdf, OwnMemory own, Outbound out) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.setup = Objects.requireNonNull(setup, "setup");
    this.bdf = bdf;
    this.own = own;
    this.out = out;
    this.open = new Piece[settings.maxOpenReads()];
  }

  /**
   * Takes a TLP that arrived at the root at model {@code arrival} when it is the relay's: a memory
   * request outside the root's own memory, or a completion of one of its split reads. False leaves
   * the TLP to the root.
   */
  public boolean takes(Tlp tlp, long arrival) {
    if (tlp instanceof MemRead r && !own.claims(r.address(), r.length())) {
      read(r, arrival);
      return true;
    }
    if (tlp instanceof MemWrite w && !own.claims(w.address(), w.length())) {
      write(w, arrival);
      return true;
    }
    return tlp instanceof Completion c && completion(c, arrival);
  }

  private void write(MemWrite w, long arrival) {
    long target = downward(w.requester(), w.address(), w.length(), true);
    if (target == AddressTranslation.FAULT) {
      writesDropped++; // posted: no answer, as a switch drops a write nothing claims
      return;
    }
    writesRelayed++;
    out.offer(target == w.address() ? w : w.withAddress(target), arrival + settings.latencyNs());
  }

  private void read(MemRead r, long arrival) {
    long ready = arrival + settings.latencyNs();
    long target = downward(r.requester(), r.address(), r.length(), false);
    if (target == AddressTranslation.FAULT) {
      readsRefused++;
      out.offer(Completion.error(bdf.getAsInt(), r, CompletionStatus.UNSUPPORTED_REQUEST, ready), ready);
      return;
    }
    readsRelayed++;
    Relayed relayed = new Relayed(r);
    int split = settings.readSplit();
    int offset = 0;
    while (offset < r.length()) {
      long address = target + offset;
      // Split at multiples of the split size, as a root emits cache-line reads.
      int n = (int) Math.min(r.length() - offset, split - Long.remainderUnsigned(address, split));
      waiting.add(new Piece(relayed, offset, address, n, ready));
      offset += n;
    }
    issue(arrival);
  }

  /** The translated address when the root's link leads to it, else {@link AddressTranslation#FAULT}. */
  private long downward(int requester, long address, int length, boolean write) {
    long target = setup.translation().translate(requester, address, length, write);
    if (target == AddressTranslation.FAULT) {
      return target;
    }
    for (AddressRange window : setup.below()) {
      if (window.containsAll(target, length)) {
        return target;
      }
    }
    return AddressTranslation.FAULT;
  }

  /** Sends waiting split reads while tags are free, none before model {@code now}. */
  private void issue(long now) {
    while (openCount < open.length && !waiting.isEmpty()) {
      Piece p = waiting.poll();
      if (p.read().failed) {
        continue; // its request is answered already: no need to read the rest
      }
      while (open[nextSlot] != null) {
        nextSlot = (nextSlot + 1) % open.length;
      }
      int slot = nextSlot;
      nextSlot = (nextSlot + 1) % open.length;
      open[slot] = p;
      openCount++;
      splitReadsIssued++;
      MemRead r = p.read().request;
      out.offer(new MemRead(bdf.getAsInt(), FIRST_TAG + slot, r.tc(), p.address(), p.length(), r.originAt(),
          r.seq()), Math.max(p.readyAt(), now));
    }
  }

  /** A completion to the root: the relay's when it answers one of its open split reads. */
  private boolean completion(Completion c, long arrival) {
    int slot = c.tag() - FIRST_TAG;
    if (slot < 0 || slot >= open.length || open[slot] == null || c.requester() != bdf.getAsInt()) {
      return false;
    }
    Piece p = open[slot];
    Relayed relayed = p.read();
    MemRead r = relayed.request;
    long at = arrival + settings.latencyNs();
    if (!relayed.failed) {
      if (c.status() != CompletionStatus.SUCCESSFUL) {
        // One error ends the original request; its other split reads are swallowed.
        relayed.failed = true;
        out.offer(Completion.error(bdf.getAsInt(), r, c.status(), at), at);
      } else {
        int offset = p.offset() + c.offset();
        out.offer(new Completion(c.completer(), r.requester(), r.tag(), r.tc(), CompletionStatus.SUCCESSFUL,
            r.length() - offset, offset, c.length(), c.data(), r.originAt(), r.seq()), at);
      }
    }
    if (c.isLast()) {
      open[slot] = null;
      openCount--;
      issue(arrival);
    }
    return true;
  }

  /** Memory reads relayed (each split into one or more reads). */
  public long readsRelayed() {
    return readsRelayed;
  }

  public long writesRelayed() {
    return writesRelayed;
  }

  /** Reads the root issued for relayed reads. */
  public long splitReadsIssued() {
    return splitReadsIssued;
  }

  /** Reads answered Unsupported Request: no translation, or the link does not lead there. */
  public long readsRefused() {
    return readsRefused;
  }

  /** Writes dropped: no translation, or the link does not lead there. */
  public long writesDropped() {
    return writesDropped;
  }

  /** Split reads open now. */
  public int openReads() {
    return openCount;
  }

  /** Split reads waiting for a tag. */
  public int waitingReads() {
    return waiting.size();
  }
}

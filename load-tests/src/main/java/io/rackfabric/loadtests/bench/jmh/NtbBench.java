package io.rackfabric.loadtests.bench.jmh;

import io.rackfabric.fabric.ntb.NtbDirection;
import io.rackfabric.fabric.ntb.NtbTranslation;
import io.rackfabric.fabric.ntb.ProxyIdSpace;
import io.rackfabric.fabric.ntb.RequesterIdTable;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Translation through one NTB port of the Ladon rack (compute host 1's on the primary chip):
 * address translation by its BARs with a proxy requester ID, the completion's way back, and the
 * requester-ID table lookup alone, once for a requester that repeats (the table's one-entry
 * cache) and once for requesters taking turns (its binary search).
 */
@State(Scope.Thread)
public class NtbBench {

  /** Requesters behind one NTB taking turns: the MH's root and its NIC's functions, say. */
  static final int SPREAD_REQUESTERS = 64;

  private NtbTranslation ntb;
  private MemWrite mhWrite;
  private MemRead chRead;
  private Completion chCompletion;
  private RequesterIdTable table;
  private int[] requesters;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    RoutingTable chip = LadonFixture.ntbChip();
    PortConfig port = chip.port(1);
    ntb = new NtbTranslation(port.ntb(), chip.internalBus(1), 1);
    int mh = Bdf.of(1, 0, 0);
    long linkBase = port.ntb().linkBars().get(0).window().base();
    long virtualBase = port.ntb().virtualBars().get(0).window().base();
    mhWrite = new MemWrite(mh, 1, 0, linkBase + 0x4000, LadonFixture.PAYLOAD, null, 0, 0);
    chRead = new MemRead(Bdf.of(0, 0, 0), 2, 0, virtualBase + 0x8000, LadonFixture.PAYLOAD, 0, 0);
    expectCrossing(ntb.toVirtual(mhWrite), "the MH's write into CH1");
    expectCrossing(ntb.toLink(chRead), "CH1's read of the MH");
    int proxy = ntb.proxyId(NtbDirection.TO_VIRTUAL, mh);
    chCompletion = new Completion(Bdf.of(0, 0, 0), proxy, 1, 0, CompletionStatus.SUCCESSFUL,
        LadonFixture.PAYLOAD, 0, LadonFixture.PAYLOAD, null, 0, 0);
    Tlp back = ntb.toLink(chCompletion);
    if (back == null || back.requester() != mh) {
      throw new IllegalStateException("CH1's completion to proxy " + Bdf.format(proxy)
          + " came back as " + back + ", not to " + Bdf.format(mh));
    }

    table = new RequesterIdTable(ProxyIdSpace.ARI_FUNCTIONS);
    requesters = new int[SPREAD_REQUESTERS];
    for (int i = 0; i < SPREAD_REQUESTERS; i++) {
      // Spread over buses and devices so that the sorted keys are not one dense run.
      requesters[i] = Bdf.of(1 + i % 7, (i * 5) % 32, i % 8);
      if (table.indexFor(requesters[i]) != i) {
        throw new IllegalStateException("requester " + Bdf.format(requesters[i]) + " did not get index " + i);
      }
    }
  }

  private static void expectCrossing(Tlp translated, String what) {
    if (translated == null) {
      throw new IllegalStateException(what + " does not cross the NTB");
    }
  }

  /** A posted write of the MH into CH1: BAR lookup, address translation, proxy requester ID. */
  @Benchmark
  public Tlp writeIntoHost() {
    return ntb.toVirtual(mhWrite);
  }

  /** CH1 reading the MH's space through its virtual-side BAR. */
  @Benchmark
  public Tlp readFromHost() {
    return ntb.toLink(chRead);
  }

  /** CH1's completion to a proxied request, given the MH's own requester ID again. */
  @Benchmark
  public Tlp completionBack() {
    return ntb.toLink(chCompletion);
  }

  /** The data-path lookup of a requester that repeats: answered by the one-entry cache. */
  @Benchmark
  public int requesterIdRepeat() {
    return table.indexFor(requesters[17]);
  }

  /** The same lookup with {@value #SPREAD_REQUESTERS} requesters taking turns: a binary search. */
  @Benchmark
  public int requesterIdSpread() {
    int i = next;
    next = i + 1 == requesters.length ? 0 : i + 1;
    return table.indexFor(requesters[i]);
  }
}

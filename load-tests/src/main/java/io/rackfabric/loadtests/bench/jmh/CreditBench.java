package io.rackfabric.loadtests.bench.jmh;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.credit.CreditLedger;
import io.rackfabric.fabric.credit.EgressReleases;
import io.rackfabric.fabric.credit.ReceiveBuffer;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.TlpClass;
import io.rackfabric.fabric.tlp.Tlps;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Credit accounting with the default settings (receive buffers and release batch of {@code
 * rackfabric.fabric}): a link's flow control for one 64-byte posted write from the transmitter's
 * ledger to the receiver's buffer and, when a batch is due, back as an UpdateFC; and a switch
 * egress port's release of its ingress siblings' buffer space.
 */
@State(Scope.Thread)
public class CreditBench {

  private CreditLedger ledger;
  private ReceiveBuffer buffer;
  private int credits;
  private EgressReleases releases;
  private MemWrite tlp;
  private int ingress;
  private long at;

  @Setup(Level.Trial)
  public void setUp() {
    FabricSettings settings = FabricSettings.create(ConfigFactory.load());
    buffer = new ReceiveBuffer(settings.receiveBuffers());
    ledger = new CreditLedger();
    ledger.initialise(buffer.advertise());
    tlp = new MemWrite(0x0100, 1, 0, 0x9_0000_0000L, LadonFixture.PAYLOAD, null, 0, 0);
    credits = Tlps.dataCredits(tlp);
    releases = new EgressReleases(settings.releaseBatch());
    // One TLP of every ingress port stays queued, so batches go back by size, not by emptiness.
    for (int port = 1; port <= LadonFixture.COMPUTE_HOSTS; port++) {
      releases.queued(port);
    }
    ingress = 1;
  }

  /**
   * Posted write over a link: the transmitter checks and consumes credit, the receiver accounts
   * the arrival and frees it, and every time a batch is due advertises new limits the
   * transmitter takes.
   */
  @Benchmark
  public long linkCreditRoundTrip() {
    ledger.consume(TlpClass.POSTED, credits);
    if (!buffer.arrive(TlpClass.POSTED, credits)) {
      throw new IllegalStateException("receiver overflow: flow control broken");
    }
    if (buffer.free(TlpClass.POSTED, 1, credits)) {
      ledger.update(buffer.advertise());
    }
    return ledger.availableHeader(TlpClass.POSTED);
  }

  /**
   * A TLP of each compute host's port in turn queued at and sent out of one egress port; returns
   * the posted headers released to its ingress port, 0 until a batch is due.
   */
  @Benchmark
  public int egressRelease() {
    int from = ingress;
    ingress = from == LadonFixture.COMPUTE_HOSTS ? 1 : from + 1;
    releases.queued(from);
    EgressReleases.Batch batch = releases.transmitted(from, tlp, at += 10);
    return batch == null ? 0 : batch.headers()[TlpClass.POSTED.ordinal()];
  }
}

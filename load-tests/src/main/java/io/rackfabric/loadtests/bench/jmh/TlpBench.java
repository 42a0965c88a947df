package io.rackfabric.loadtests.bench.jmh;

import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlps;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.memory.Resolution;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A TLP's construction with its wire size and credits, and the decode of a host's address in the
 * Ladon global memory space ({@link GlobalMemoryLayout#resolve}), as {@code rack route} and the
 * host's software use it: CH1 addressing every other compute host in turn.
 */
@State(Scope.Thread)
public class TlpBench {

  private GlobalMemoryLayout layout;
  private long[] chAddresses;
  private int[] targets;
  private int next;
  private long address = 0x9_0000_0000L;
  private long seq;
  /** Where each write goes, as a link's queue would take it: without it the JIT drops the object. */
  private MemWrite sent;

  @Setup(Level.Trial)
  public void setUp() {
    layout = LadonFixture.layout();
    int others = LadonFixture.COMPUTE_HOSTS - 1;
    chAddresses = new long[others];
    targets = new int[others];
    for (int i = 0; i < others; i++) {
      targets[i] = i + 2;
      chAddresses[i] = layout.chAddress(1, targets[i], 0x10_0000L * i, Plane.PRIMARY);
      Resolution r = layout.resolve(1, chAddresses[i]);
      if (r.kind() != Resolution.Kind.COMPUTE_HOST || r.host() != targets[i]) {
        throw new IllegalStateException("CH1's address " + Long.toHexString(chAddresses[i])
            + " resolves to " + r + ", not to CH" + targets[i]);
      }
    }
  }

  /** A 64-byte posted write built and sized (wire bytes, data credits), as a generator does. */
  @Benchmark
  public int memWriteSized() {
    address += LadonFixture.PAYLOAD;
    MemWrite w = new MemWrite(0x0100, (int) (seq & 0xFF), 0, address, LadonFixture.PAYLOAD, null, 0, ++seq);
    sent = w;
    return Tlps.wireBytes(w) + Tlps.dataCredits(w);
  }

  /** CH1's address of another compute host decoded to that host and offset, with its NTB hops. */
  @Benchmark
  public Resolution resolveChAddress() {
    int i = next;
    next = i + 1 == chAddresses.length ? 0 : i + 1;
    return layout.resolve(1, chAddresses[i]);
  }
}

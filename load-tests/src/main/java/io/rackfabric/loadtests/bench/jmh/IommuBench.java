package io.rackfabric.loadtests.bench.jmh;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.host.iommu.IommuDecision;
import io.rackfabric.host.iommu.IommuResult;
import io.rackfabric.host.iommu.IommuTable;
import io.rackfabric.host.iommu.Permission;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The IOMMU check of every inbound DMA at a compute host of the Ladon rack: 8 GiB of memory, the
 * other 28 compute hosts and the MH each with {@value #RUNS_PER_REQUESTER} separate runs of
 * {@value #PAGES_PER_RUN} pages open (read-write and read-only in turn). Accesses visit every
 * requester and every run in turn.
 */
@State(Scope.Thread)
public class IommuBench {

  static final int REQUESTERS = LadonFixture.COMPUTE_HOSTS;
  static final int RUNS_PER_REQUESTER = 32;
  static final int PAGES_PER_RUN = 16;
  /** Runs start this far apart, so that neighbouring runs never merge. */
  private static final long RUN_STRIDE = 1L << 20;
  private static final long REQUESTER_STRIDE = RUNS_PER_REQUESTER * RUN_STRIDE;

  private IommuTable iommu;
  private int[] requester;
  private long[] allowed;
  private long[] denied;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    iommu = new IommuTable("ch1", List.of(AddressRange.ofSize(0, 8L << 30)));
    int accesses = REQUESTERS * RUNS_PER_REQUESTER;
    requester = new int[accesses];
    allowed = new long[accesses];
    denied = new long[accesses];
    for (int r = 0; r < REQUESTERS; r++) {
      // Proxy IDs as the CH's NTB hands them out: ARI functions on its virtual side's bus.
      int id = (2 << 8) | r;
      for (int run = 0; run < RUNS_PER_REQUESTER; run++) {
        long base = (1L << 30) + r * REQUESTER_STRIDE + run * RUN_STRIDE;
        Permission p = run % 2 == 0 ? Permission.READ_WRITE : Permission.READ;
        if (iommu.open(id, base, PAGES_PER_RUN, p) instanceof IommuResult.Rejection no) {
          throw new IllegalStateException("open " + Bdf.format(id) + ": " + no);
        }
        int a = r * RUNS_PER_REQUESTER + run;
        requester[a] = id;
        allowed[a] = base + (run % PAGES_PER_RUN) * IommuTable.PAGE_SIZE + 0x40;
        // Writes to the read-only runs, reads past the end of the read-write ones.
        denied[a] = p == Permission.READ ? allowed[a] : base + PAGES_PER_RUN * IommuTable.PAGE_SIZE;
      }
    }
    for (int a = 0; a < accesses; a++) {
      if (iommu.check(requester[a], allowed[a], LadonFixture.PAYLOAD, false) != IommuDecision.ALLOW
          || iommu.check(requester[a], denied[a], LadonFixture.PAYLOAD, isWrite(a)) != IommuDecision.DENY) {
        throw new IllegalStateException("access " + a + " of " + Bdf.format(requester[a])
            + " is not decided as the benchmark expects");
      }
    }
  }

  private static boolean isWrite(int access) {
    return access % RUNS_PER_REQUESTER % 2 == 1;
  }

  private int nextAccess() {
    int i = next;
    next = i + 1 == allowed.length ? 0 : i + 1;
    return i;
  }

  /** A 64-byte read inside an open run. */
  @Benchmark
  public IommuDecision checkAllowed() {
    int a = nextAccess();
    return iommu.checkAndCount(requester[a], allowed[a], LadonFixture.PAYLOAD, false);
  }

  /** A 64-byte access the table refuses, counted against its requester as the data path does. */
  @Benchmark
  public IommuDecision checkDenied() {
    int a = nextAccess();
    return iommu.checkAndCount(requester[a], denied[a], LadonFixture.PAYLOAD, isWrite(a));
  }
}

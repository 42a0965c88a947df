package io.rackfabric.loadtests.scenario.language;

import com.typesafe.config.Config;
import io.rackfabric.cluster.topology.DeviceKind;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.host.device.disk.DiskReadPlan;
import io.rackfabric.host.device.disk.DiskSettings;
import io.rackfabric.host.device.disk.SubmissionEntry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A scenario's {@code disk-reads = [ { name, driver, disk, registers, queues = { disk, host },
 * msi = { disk, host, forward = { lender, word, to } }, buffer = { disk, host }, blocks, count } ]}: disk drivers that read random
 * LBAs, one workload per item ({@link DiskReads}), run one after the other. Every address is
 * followed through the topology as {@code rack route} does ({@link DeviceRoutes}): the registers
 * from the driver to the disk's BAR0, the queues (the SQ read, the CQ written), the buffer and the
 * MSI-X message from the disk to the driver's RAM at their host-side addresses (with {@code
 * msi.forward}, a VM borrower's path: from the disk to the lender's handler word, and the lender's
 * write of it to the driver's MSI word, as {@code gpu-copies} checks it).
 */
final class DiskReadsSection {

  static final String KEY = "disk-reads";
  /** An 8-block read, as the paper's NVMe experiment. */
  static final int DEFAULT_BLOCKS = 8;

  private final ScenarioFile file;

  DiskReadsSection(ScenarioFile file) {
    this.file = file;
  }

  List<DiskReads> workloads(Fields f, TopologyRef topology, Mode mode, Config config) {
    List<Fields> items = f.objects(KEY, false);
    if (items.isEmpty()) {
      return List.of();
    }
    if (mode == Mode.MULTI_JVM) {
      f.error(KEY, "disk-reads runs its drivers in the driving JVM, next to their endpoints: mode must be single-jvm");
    }
    DiskSettings settings;
    try {
      settings = DiskSettings.create(config);
    } catch (RuntimeException e) {
      return List.of(); // the settings block reports the bad setting (ScenarioSettings checks every record)
    }
    List<DiskReads> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Fields item : items) {
      DiskReads w = workload(item, topology == null ? null : topology.topology(), settings);
      if (w == null) {
        continue;
      }
      if (!names.add(w.name())) {
        item.error("name", "'" + w.name() + "' is the name of another disk-reads workload");
      } else {
        out.add(w);
      }
    }
    return out;
  }

  private DiskReads workload(Fields w, Topology topology, DiskSettings settings) {
    w.allowOnly("name", "driver", "disk", "registers", "queues", "msi", "buffer", "blocks", "count");
    int before = file.problems.size();
    String name = w.string("name", true);
    if (name != null && !ScenarioFile.NAME.matcher(name).matches()) {
      w.error("name", "name '" + name + "' must be letters, digits, '_', '-' or '.' (it names figures)");
    }
    String driver = w.string("driver", true);
    String disk = w.string("disk", true);
    Long registers = w.address("registers", true);
    long[] queues = DeviceRoutes.pair(w, "queues", "disk");
    long[] msi = DeviceRoutes.pair(w, "msi", "disk", "forward");
    GpuCopies.MsiForward forward = GpuCopiesSection.forward(w);
    long[] buffer = DeviceRoutes.pair(w, "buffer", "disk");
    Integer blocks = w.integerIn("blocks", DEFAULT_BLOCKS, 1,
        (int) Math.min(settings.maxBlocksPerCommand(), settings.capacityBlocks()));
    Integer count = w.integerIn("count", null, 1, DiskReads.MAX_COUNT);
    if (queues[0] % SubmissionEntry.SIZE != 0) {
      w.error("queues", "queues.disk=" + Addresses.hex(queues[0]) + " is not a multiple of " + SubmissionEntry.SIZE
          + " (the submission queue's alignment)");
    }
    if (file.problems.size() != before || topology == null || blocks == null || count == null) {
      return null;
    }
    DiskReads spec = new DiskReads(name, driver, disk, registers, queues[0], queues[1], buffer[0], buffer[1], msi[0],
        msi[1], blocks, count, settings.capacityBlocks(), forward, file.where(w));
    checkRoutes(w, topology, spec);
    return file.problems.size() != before ? null : spec;
  }

  /** The workload's addresses against the topology, and its three areas apart in the driver's RAM. */
  private static void checkRoutes(Fields w, Topology topology, DiskReads spec) {
    DeviceRoutes routes = new DeviceRoutes(w, topology, spec.driver(), spec.disk(), "disk");
    Optional<EndpointSpec> disk = routes.endpoints(DeviceKind.DISK, 1, "disks");
    if (disk.isEmpty()) {
      return;
    }
    routes.registersAtBar0(spec.registers(), disk.get().bars().get(0), "SQ_BASE");
    int cq = DiskReadPlan.CQ_OFFSET;
    boolean queues = routes.towardHost("queues", spec.queuesDisk(), spec.queuesHost(), 0, true,
        "the submission queue's first entry")
        && routes.towardHost("queues", spec.queuesDisk(), spec.queuesHost(), cq - 1, true,
            "the submission queue's last byte")
        && routes.towardHost("queues", spec.queuesDisk(), spec.queuesHost(), cq, false,
            "the completion queue's first entry")
        && routes.towardHost("queues", spec.queuesDisk(), spec.queuesHost(), DiskReadPlan.QUEUE_BYTES - 1, false,
            "the completion queue's last byte");
    boolean buffer = routes.areaTowardHost("buffer", spec.bufferDisk(), spec.bufferHost(), spec.bufferBytes(), false,
        "the " + spec.blocks() + "-block buffer");
    boolean msi = true;
    if (spec.forward() == null) {
      msi = routes.towardHost("msi", spec.msiDisk(), spec.msiHost(), 0, false, "the MSI-X message");
    } else {
      GpuCopiesSection.checkForward(w, topology, spec.disk(), "disk", spec.driver(), spec.msiDisk(), spec.msiHost(),
          spec.forward());
    }
    if (queues && buffer && msi) {
      routes.apart("buffer", "buffer.host", spec.bufferHost(), spec.bufferBytes(), "queues.host", spec.queuesHost(),
          DiskReadPlan.QUEUE_BYTES);
      routes.apart("msi", "msi.host", spec.msiHost(), 4, "queues.host", spec.queuesHost(), DiskReadPlan.QUEUE_BYTES);
      routes.apart("msi", "msi.host", spec.msiHost(), 4, "buffer.host", spec.bufferHost(), spec.bufferBytes());
    }
  }
}

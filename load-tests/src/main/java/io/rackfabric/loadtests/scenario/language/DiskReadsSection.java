package io.rackfabric.loadtests.scenario.language;

import com.typesafe.config.Config;
import io.rackfabric.cluster.lending.VmPassThrough.GuestMapping;
import io.rackfabric.cluster.topology.DeviceKind;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.host.device.disk.DiskReadPlan;
import io.rackfabric.host.device.disk.DiskRegisters;
import io.rackfabric.host.device.disk.DiskSettings;
import io.rackfabric.host.device.disk.SubmissionEntry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A scenario's {@code disk-reads = [ { name, driver, disk, registers, queues = { disk, host },
 * msi = { disk, host, forward = { lender, word, to } }, buffer = { disk, host }, blocks, count, vm,
 * vector, at } ]} ({@code queues}, {@code buffer} or {@code msi = { host }} alone: a borrower's
 * area, which the disk reaches through the loan's DMA window, {@link LoanSides})
 * (a VM's driver, {@code vm}: {@code queues = { guest }}, {@code buffer = { guest }} and {@code msi
 * = { guest, forward }} at guest-physical addresses, which the VM's IOMMU map turns into the disk's
 * and the host's sides): disk drivers that read random
 * LBAs, one workload per item ({@link DiskReads}), run one after the other ({@code at}: the first
 * one's start in model time; else each starts once the rack is quiet). Every address is
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

  List<DiskReads> workloads(Fields f, TopologyRef topology, Mode mode, Config config, Map<String, VmsSection.Vm> vms) {
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
      DiskReads w = workload(item, topology == null ? null : topology.topology(), settings, vms);
      if (w == null) {
        continue;
      }
      if (!names.add(w.name())) {
        item.error("name", "'" + w.name() + "' is the name of another disk-reads workload");
      } else if (!out.isEmpty() && w.atNs() != DiskReads.AT_QUIET) {
        item.error("at", "only the first disk-reads workload gives at: the others start once the one before"
            + " them has finished (they share the disk's queue pair)");
      } else {
        out.add(w);
      }
    }
    return out;
  }

  private DiskReads workload(Fields w, Topology topology, DiskSettings settings, Map<String, VmsSection.Vm> vms) {
    w.allowOnly("name", "driver", "disk", "registers", "queues", "msi", "buffer", "blocks", "count", "vm", "vector",
        "at");
    int before = file.problems.size();
    String name = w.string("name", true);
    if (name != null && !ScenarioFile.NAME.matcher(name).matches()) {
      w.error("name", "name '" + name + "' must be letters, digits, '_', '-' or '.' (it names figures)");
    }
    String driver = w.string("driver", true);
    String disk = w.string("disk", true);
    Long registers = w.address("registers", true);
    GuestMapping guest = w.has("vm") ? guest(w, vms, driver, disk) : null;
    if (w.has("vm") && guest == null) {
      return null;
    }
    Integer vector = w.integerIn("vector", DiskReadPlan.ALIAS, 0, DiskRegisters.DEFAULT_MSIX_ENTRIES - 1);
    LoanSides loan = new LoanSides(w, topology, disk, driver, "disk");
    long[] queues = guest == null ? loan.area("queues") : inGuest(w, "queues", guest);
    long[] msi = guest == null ? loan.msi(vector == null ? 0 : Math.max(0, vector), "forward")
        : guestMsi(w, guest);
    GpuCopies.MsiForward forward = GpuCopiesSection.forward(w);
    long[] buffer = guest == null ? loan.area("buffer") : inGuest(w, "buffer", guest);
    Integer blocks = w.integerIn("blocks", DEFAULT_BLOCKS, 1,
        (int) Math.min(settings.maxBlocksPerCommand(), settings.capacityBlocks()));
    Integer count = w.integerIn("count", null, 1, DiskReads.MAX_COUNT);
    Long at = w.durationNs("at", DiskReads.AT_QUIET);
    if (queues[0] % SubmissionEntry.SIZE != 0) {
      w.error("queues", "queues.disk=" + Addresses.hex(queues[0]) + " is not a multiple of " + SubmissionEntry.SIZE
          + " (the submission queue's alignment)");
    }
    if (file.problems.size() != before || topology == null || blocks == null || count == null || vector == null
        || at == null) {
      return null;
    }
    DiskReads spec = new DiskReads(name, driver, disk, registers, queues[0], queues[1], buffer[0], buffer[1], msi[0],
        msi[1], blocks, count, settings.capacityBlocks(), forward, file.where(w), vector, at);
    checkRoutes(w, topology, spec);
    return file.problems.size() != before ? null : spec;
  }

  /**
   * {@code vm}: the VM whose driver reads, on the driver's host with the disk passed through; null,
   * reported, if not.
   */
  private static GuestMapping guest(Fields w, Map<String, VmsSection.Vm> vms, String driver, String disk) {
    String name = w.string("vm", true);
    VmsSection.Vm vm = name == null ? null : vms.get(name);
    if (name != null && vm == null) {
      w.error("vm", "vm=" + name + " is no VM of the scenario's vms (" + String.join(", ", vms.keySet()) + ")");
      return null;
    }
    if (vm == null) {
      return null;
    }
    if (!vm.guest().host().equals(driver)) {
      w.error("vm", "vm=" + name + " runs on " + vm.guest().host() + ", not on driver=" + driver);
      return null;
    }
    if (!vm.devices().containsKey(disk)) {
      w.error("vm", "disk=" + disk + " is not passed through to vm=" + name + " (devices: "
          + String.join(", ", vm.devices().keySet()) + ")");
      return null;
    }
    return vm.devices().get(disk);
  }

  /**
   * {@code KEY = { guest }} of a VM's driver: the area at guest-physical {@code guest}; the disk
   * reaches it at the lender IOMMU's output for it, the driver in the host's RAM behind it.
   */
  private static long[] inGuest(Fields w, String key, GuestMapping m) {
    Fields p = w.object(key, true);
    if (p == null) {
      return new long[2];
    }
    p.allowOnly("guest");
    Long gpa = p.address("guest", true);
    return gpa == null ? new long[2] : translated(p, m, gpa);
  }

  /**
   * {@code msi = { guest, forward }} of a VM's driver: the guest's word at guest-physical {@code
   * guest}; the disk's message goes to the lender's handler word ({@code forward.word}, required).
   */
  private static long[] guestMsi(Fields w, GuestMapping m) {
    Fields p = w.object("msi", true);
    if (p == null) {
      return new long[2];
    }
    p.allowOnly("guest", "forward");
    Long gpa = p.address("guest", true);
    if (!p.has("forward")) {
      p.error("forward", "missing (required with vm): a VM's interrupt goes through its lender's handler,"
          + " msi.forward = { lender, word, to }");
      return new long[2];
    }
    Fields f = p.object("forward", true);
    Long word = f == null ? null : f.address("word", false);
    return gpa == null || word == null ? new long[2] : new long[] {word, translated(p, m, gpa)[1]};
  }

  /** {disk side, host side} of guest-physical {@code gpa}; reported on {@code p} when outside the VM's memory. */
  private static long[] translated(Fields p, GuestMapping m, long gpa) {
    try {
      return new long[] {m.busAddress(gpa), m.vm().hostAddress(gpa)};
    } catch (IllegalArgumentException e) {
      p.error("guest", e.getMessage());
      return new long[2];
    }
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

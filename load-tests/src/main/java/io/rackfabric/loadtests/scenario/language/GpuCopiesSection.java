package io.rackfabric.loadtests.scenario.language;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.cluster.topology.DeviceKind;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.RouteExplainer;
import io.rackfabric.cluster.topology.RouteExplanation;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.host.device.gpu.GpuCopyPlan.Direction;
import io.rackfabric.host.device.gpu.GpuSettings;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A scenario's {@code gpu-copies = [ { name, driver, gpu, registers, device-memory, buffer = { gpu,
 * host } (or peer = { gpu, address }), msi = { gpu, host, forward = { lender, word, to } }, via-ram,
 * sizes = [...] (or from, to: doubling), directions, repeat, after } ]}: GPU drivers that run DMA
 * copies, one workload per item ({@link GpuCopies}; the peer and via-RAM targets in {@link
 * GpuCopyTargets}; {@code buffer} or {@code msi = { host }} alone: a borrower's area, which the GPU
 * reaches through the loan's DMA window, {@link LoanSides}). Every address is
 * followed through the topology as {@code rack route} does ({@link DeviceRoutes}): the registers
 * from the driver to the GPU's BAR0, the buffer's and the MSI's GPU-side addresses from the GPU to
 * the driver's RAM at their host-side addresses, the buffer's whole window for the largest copy.
 */
final class GpuCopiesSection {

  static final String KEY = "gpu-copies";
  /** The most copies of one size and direction. */
  static final int MAX_REPEAT = 1000;

  private final ScenarioFile file;

  GpuCopiesSection(ScenarioFile file) {
    this.file = file;
  }

  List<GpuCopies> workloads(Fields f, TopologyRef topology, Mode mode, Config config) {
    List<Fields> items = f.objects(KEY, false);
    if (items.isEmpty()) {
      return List.of();
    }
    if (mode == Mode.MULTI_JVM) {
      f.error(KEY, "gpu-copies runs its drivers in the driving JVM, next to their endpoints: mode must be single-jvm");
    }
    long maxCopy;
    try {
      maxCopy = GpuSettings.create(config).maxCopyBytes();
    } catch (RuntimeException e) {
      return List.of(); // the settings block reports the bad setting (ScenarioSettings checks every record)
    }
    List<GpuCopies> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Fields item : items) {
      GpuCopies w = workload(item, topology == null ? null : topology.topology(), maxCopy);
      if (w == null) {
        continue;
      }
      List<GpuCopies> beside = out.stream().filter(o -> !chained(w, o, out)).toList();
      String shared = beside.stream().flatMap(o -> o.driven().stream()).filter(w.driven()::contains).findFirst()
          .orElse(null);
      if (!names.add(w.name())) {
        item.error("name", "'" + w.name() + "' is the name of another gpu-copies workload");
      } else if (w.after() != null && out.stream().noneMatch(o -> o.name().equals(w.after()))) {
        item.error("after", "after=" + w.after() + " names no gpu-copies workload before this one ("
            + String.join(", ", out.stream().map(GpuCopies::name).toList()) + ")");
      } else if (shared != null) {
        item.error("gpu", "gpu=" + shared + " is driven by another gpu-copies workload: a GPU runs one copy at a time"
            + " (after = NAME runs this one when that one has finished)");
      } else if (sharesAreas(w, beside) != null) {
        // Two drivers on one host watch their MSI words in one RAM: each must be its own.
        item.error("msi", "the MSI word or the buffer of '" + w.name() + "' overlaps those of '"
            + sharesAreas(w, beside).name() + "' on " + w.driver()
            + ": workloads of one driver need areas of their own");
      } else {
        out.add(w);
      }
    }
    return out;
  }

  /** Whether {@code o} is before {@code w} in its chain of {@code after}s: the two never run at once. */
  private static boolean chained(GpuCopies w, GpuCopies o, List<GpuCopies> earlier) {
    String next = w.after();
    while (next != null) {
      if (next.equals(o.name())) {
        return true;
      }
      String name = next;
      next = earlier.stream().filter(e -> e.name().equals(name)).map(GpuCopies::after).findFirst().orElse(null);
    }
    return false;
  }

  /** A workload of the same driver whose buffer or MSI word overlaps {@code w}'s, or null. */
  private static GpuCopies sharesAreas(GpuCopies w, List<GpuCopies> others) {
    for (GpuCopies o : others) {
      if (o.driver().equals(w.driver()) && (overlaps(w.msiHost(), 4, o.msiHost(), 4)
          || overlaps(w.bufferHost(), bufferBytes(w), o.bufferHost(), bufferBytes(o))
          || overlaps(w.msiHost(), 4, o.bufferHost(), bufferBytes(o))
          || overlaps(o.msiHost(), 4, w.bufferHost(), bufferBytes(w)))) {
        return o;
      }
    }
    return null;
  }

  /** The host buffer's bytes: none when the copies go peer to peer. */
  private static long bufferBytes(GpuCopies w) {
    return w.hasHostBuffer() ? w.largest() : 0;
  }

  private static boolean overlaps(long a, long aLength, long b, long bLength) {
    return a < b + bLength && b < a + aLength;
  }

  private GpuCopies workload(Fields w, Topology topology, long maxCopy) {
    w.allowOnly("name", "driver", "gpu", "registers", "device-memory", "buffer", "msi", "sizes", "from", "to",
        "directions", "repeat", GpuCopyTargets.PEER, GpuCopyTargets.VIA_RAM, "after", "at");
    int before = file.problems.size();
    String name = w.string("name", true);
    if (name != null && !ScenarioFile.NAME.matcher(name).matches()) {
      w.error("name", "name '" + name + "' must be letters, digits, '_', '-' or '.' (it names figures)");
    }
    String driver = w.string("driver", true);
    String gpu = w.string("gpu", true);
    Long registers = w.address("registers", true);
    Long deviceMemory = w.address("device-memory", true);
    boolean toPeer = w.has(GpuCopyTargets.PEER);
    if (toPeer && (w.has("buffer") || w.has(GpuCopyTargets.VIA_RAM))) {
      w.error(GpuCopyTargets.PEER, "give peer (copies into another GPU's memory) or buffer, with via-ram if bounced"
          + " through it, not both");
    }
    GpuCopyTargets.Peer peer = toPeer ? GpuCopyTargets.peer(w) : null;
    GpuCopies.ViaRam viaRam = w.has(GpuCopyTargets.VIA_RAM) ? GpuCopyTargets.viaRam(w) : null;
    LoanSides loan = new LoanSides(w, topology, gpu, driver, "gpu");
    long[] buffer = toPeer ? new long[] {peer == null ? 0 : peer.address(), GpuCopies.NO_HOST_BUFFER}
        : loan.area("buffer");
    GpuCopies.MsiForward forward = forward(w);
    long[] msi = loan.msi(0, "forward");
    List<Long> sizes = sizes(w, maxCopy);
    List<Direction> directions = directions(w, toPeer || w.has(GpuCopyTargets.VIA_RAM));
    String after = w.string("after", false);
    Long at = w.durationNs("at", 0L);
    if (after != null && w.has("at")) {
      w.error("at", "give at (a model time) or after (another workload's end), not both");
    }
    Integer repeat = w.integerIn("repeat", 1, 1, MAX_REPEAT);
    if (sizes != null && directions != null && repeat != null
        && (long) sizes.size() * directions.size() * repeat > GpuCopies.MAX_COPIES) {
      w.error("repeat", sizes.size() + " sizes x " + directions.size() + " directions x repeat=" + repeat
          + " is more than the " + GpuCopies.MAX_COPIES + " copies a workload runs");
    }
    if (file.problems.size() != before || topology == null || sizes == null || directions == null
        || repeat == null || at == null) {
      return null;
    }
    GpuCopies spec = new GpuCopies(name, driver, gpu, registers, deviceMemory, buffer[0], buffer[1], msi[0], msi[1],
        sizes, directions, repeat, forward, file.where(w), peer == null ? null : peer.gpu(), viaRam, after, at);
    checkRoutes(w, topology, spec);
    return file.problems.size() != before ? null : spec;
  }

  /** {@code msi.forward = { lender, word, to }}, or null when the MSI goes straight to the driver. */
  static GpuCopies.MsiForward forward(Fields w) {
    Fields msi = w.has("msi") && w.raw("msi").valueType() == ConfigValueType.OBJECT
        ? w.object("msi", false) : null;
    Fields f = msi == null ? null : msi.object("forward", false);
    if (f == null) {
      return null;
    }
    f.allowOnly("lender", "word", "to");
    String lender = f.string("lender", true);
    Long word = f.address("word", true);
    Long to = f.address("to", true);
    return lender == null || word == null || to == null ? null : new GpuCopies.MsiForward(lender, word, to);
  }

  /** {@code sizes = [...]}, or {@code from}, {@code to}: doubling from one to the other; ascending, each once. */
  private List<Long> sizes(Fields w, long maxCopy) {
    boolean list = w.has("sizes");
    boolean range = w.has("from") || w.has("to");
    if (list == range) {
      w.error("sizes", list ? "give sizes = [...] or from/to, not both"
          : "missing (required): sizes = [4KiB, ...], or from = 4KiB, to = 16MiB (doubling)");
      return null;
    }
    TreeSet<Long> out = new TreeSet<>();
    int before = file.problems.size();
    if (list) {
      ConfigList items = w.list("sizes", true);
      for (int i = 0; items != null && i < items.size(); i++) {
        Long size = w.addressValue(items.get(i), w.key("sizes") + "[" + i + "]");
        if (size != null && checkSize(w, w.key("sizes") + "[" + i + "]", items.get(i), size, maxCopy)) {
          out.add(size);
        }
      }
      if (items != null && items.isEmpty()) {
        w.error("sizes", "sizes=[] names no size");
      }
    } else {
      Long from = w.address("from", true);
      Long to = w.address("to", true);
      boolean ok = from != null && checkSize(w, w.key("from"), w.raw("from"), from, maxCopy)
          & to != null && checkSize(w, w.key("to"), w.raw("to"), to, maxCopy);
      if (ok && from > to) {
        w.error("to", "to=" + GpuCopies.sizeText(to) + " is below from=" + GpuCopies.sizeText(from));
      } else if (ok) {
        for (long s = from; s <= to; s *= 2) {
          out.add(s);
          if (s > to / 2) {
            break; // the next doubling passes to (or would overflow)
          }
        }
      }
    }
    return file.problems.size() != before || out.isEmpty() ? null : List.copyOf(out);
  }

  private boolean checkSize(Fields w, String key, ConfigValue v, long size, long maxCopy) {
    String why = size <= 0 ? "must be above 0"
        : size > maxCopy ? "is above the GPU's max-copy-bytes=" + GpuCopies.sizeText(maxCopy)
        + " (rackfabric.host.gpu.max-copy-bytes)" : null;
    if (why != null) {
      file.problems.add(v.origin(), key, key.substring(key.lastIndexOf('.') + 1) + "=" + size + " " + why);
    }
    return why == null;
  }

  /**
   * {@code directions = [write, read]} (the default), each once; {@code [write]} only when {@code
   * writesOnly} (copies into a peer or via RAM, Device Lending's peer-to-peer writes).
   */
  private List<Direction> directions(Fields w, boolean writesOnly) {
    if (!w.has("directions")) {
      return writesOnly ? List.of(Direction.WRITE) : List.of(Direction.WRITE, Direction.READ);
    }
    ConfigList items = w.list("directions", true);
    if (items == null) {
      return null;
    }
    List<Direction> out = new ArrayList<>();
    int before = file.problems.size();
    for (int i = 0; i < items.size(); i++) {
      ConfigValue v = items.get(i);
      String key = w.key("directions") + "[" + i + "]";
      Optional<Direction> d = v.valueType() != ConfigValueType.STRING ? Optional.empty()
          : List.of(Direction.values()).stream().filter(x -> x.label().equals(((String) v.unwrapped()).trim()))
              .findFirst();
      if (d.isEmpty()) {
        String text = v.valueType() == ConfigValueType.STRING ? ((String) v.unwrapped()).trim() : Fields.describe(v);
        file.problems.add(v.origin(), key, "directions[" + i + "]=" + text + " is not a direction: write (device"
            + " memory to the buffer) or read (the buffer to device memory)");
      } else if (out.contains(d.get())) {
        file.problems.add(v.origin(), key, "'" + d.get().label() + "' is listed twice");
      } else if (writesOnly && d.get() != Direction.WRITE) {
        file.problems.add(v.origin(), key, "directions[" + i + "]=" + d.get().label() + ": copies into a peer or via"
            + " RAM go from the workload's GPU to the other one: write only");
      } else {
        out.add(d.get());
      }
    }
    if (items.isEmpty()) {
      w.error("directions", "directions=[] names no direction");
    }
    return file.problems.size() != before || out.isEmpty() ? null : out;
  }

  /** The workload's addresses against the topology. */
  private static void checkRoutes(Fields w, Topology topology, GpuCopies spec) {
    DeviceRoutes routes = new DeviceRoutes(w, topology, spec.driver(), spec.gpu(), "gpu");
    Optional<EndpointSpec> gpu = routes.endpoints(DeviceKind.GPU, 2, "GPUs");
    if (gpu.isEmpty()) {
      return;
    }
    routes.registersAtBar0(spec.registers(), gpu.get().bars().get(0), "SRC");
    long largest = spec.largest();
    checkInBar1(w, spec.gpu(), gpu.get().bars().get(1), spec.deviceMemory(), largest);
    if (spec.forward() == null) {
      routes.towardHost("msi", spec.msiGpu(), spec.msiHost(), 0, false, "the MSI");
    } else {
      checkForward(w, topology, spec.gpu(), "gpu", spec.driver(), spec.msiGpu(), spec.msiHost(), spec.forward());
    }
    if (spec.peer() != null) {
      GpuCopyTargets.checkPeer(w, topology, spec);
      return;
    }
    if (spec.msiHost() + 4 > spec.bufferHost() && spec.msiHost() < spec.bufferHost() + largest) {
      w.error("msi", "msi.host=" + Addresses.hex(spec.msiHost()) + " lies in the buffer's "
          + GpuCopies.sizeText(largest) + " at buffer.host=" + Addresses.hex(spec.bufferHost())
          + ": a write copy would overwrite the MSI");
    }
    for (Direction d : spec.directions()) {
      boolean read = d == Direction.READ;
      boolean reached = routes.towardHost("buffer", spec.bufferGpu(), spec.bufferHost(), 0, read,
          "the buffer's first byte")
          && routes.towardHost("buffer", spec.bufferGpu(), spec.bufferHost(), largest - 1, read,
              "the buffer's last byte for the largest copy of " + GpuCopies.sizeText(largest));
      if (!reached) {
        return; // one message for the buffer is enough
      }
    }
    if (spec.viaRam() != null) {
      GpuCopyTargets.checkViaRam(w, topology, spec);
    }
  }

  /** {@code deviceMemory} with the largest copy must lie inside {@code gpu}'s BAR1; else reported on {@code f}. */
  static void checkInBar1(Fields f, String gpu, AddressRange bar1, long deviceMemory, long largest) {
    if (!bar1.contains(deviceMemory) || Long.compareUnsigned(deviceMemory + largest - 1, bar1.limit()) > 0) {
      f.error("device-memory", "device-memory=" + Addresses.hex(deviceMemory) + " with the largest copy of "
          + GpuCopies.sizeText(largest) + " is not inside " + gpu + "'s BAR1 " + bar1);
    }
  }

  /**
   * A device's MSI lands at the lender's word, the lender's write of it at the driver's MSI word
   * ({@code side}: how the workload names the device's side of {@code msi}, gpu or disk).
   */
  static void checkForward(Fields w, Topology topology, String device, String side, String driver, long msiDevice,
      long msiHost, GpuCopies.MsiForward f) {
    if (topology.endpoint(f.lender()).filter(EndpointSpec::root).isEmpty()) {
      w.error("msi", "msi.forward.lender=" + f.lender() + " is not a root (a host) of " + topology.name());
      return;
    }
    RouteExplainer routes = new RouteExplainer(topology);
    RouteExplanation msi = routes.explain(device, msiDevice, false);
    if (!msi.delivered() || !f.lender().equals(msi.target()) || msi.outcome().address() != f.word()) {
      w.error("msi", "msi." + side + "=" + Addresses.hex(msiDevice) + ": the MSI from " + device + " is "
          + msi.ending() + "; with msi.forward it must reach " + f.lender() + " at msi.forward.word="
          + Addresses.hex(f.word()));
    }
    RouteExplanation on = routes.explain(f.lender(), f.to(), false);
    if (!on.delivered() || !driver.equals(on.target()) || on.outcome().address() != msiHost) {
      w.error("msi", "msi.forward.to=" + Addresses.hex(f.to()) + ": the lender's write is " + on.ending()
          + "; it must reach " + driver + " at msi.host=" + Addresses.hex(msiHost));
    }
  }
}

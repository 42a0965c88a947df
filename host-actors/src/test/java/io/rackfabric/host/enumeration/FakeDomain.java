package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.config.BarRegisters;
import io.rackfabric.fabric.config.ConfigSpace;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.CompletionStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * A PCIe domain in plain objects, routing configuration requests as switches do: over a link only
 * device 0 answers; an upstream port forwards a type-1 request to a downstream port whose
 * secondary..subordinate holds the bus, or answers for the downstream port on its own internal
 * bus. Registers are the fabric's own register model, so what the enumerator writes takes effect
 * (or not) exactly as in the emulated switch. Everything starts unnumbered (buses 0).
 */
final class FakeDomain {

  /** Something at the far end of a link. */
  sealed interface Device permits Endpoint, Switch {}

  static final class Endpoint implements Device {
    final int vendor;
    final int device;
    final BarRegisters bars;

    Endpoint(int vendor, int device, List<Long> barSizes, boolean prefetchable) {
      this.vendor = vendor;
      this.device = device;
      List<AddressRange> initial = new ArrayList<>();
      for (long size : barSizes) {
        initial.add(AddressRange.ofSize(0, size));
      }
      this.bars = new BarRegisters(initial, prefetchable);
    }

    List<AddressRange> windows() {
      return bars.windows();
    }
  }

  static final class Port {
    final int number;
    final boolean upstream;
    Device below;
    Endpoint ntb;
    FakePortRegisters regs;

    Port(int number, boolean upstream) {
      this.number = number;
      this.upstream = upstream;
      this.regs = new FakePortRegisters(new PortConfig("p" + number, number,
          upstream ? PortRole.UPSTREAM : PortRole.DOWNSTREAM, 1, new BridgeRegisters(0, 0, 0, null, null), null));
    }

    BridgeRegisters bridge() {
      return regs.current().bridge();
    }
  }

  /** Wraps the fabric's PortRegisters; a test may make one port ignore writes to one register. */
  static final class FakePortRegisters {
    private final io.rackfabric.fabric.config.PortRegisters regs;
    int ignoredRegister = -1;

    FakePortRegisters(PortConfig initial) {
      this.regs = new io.rackfabric.fabric.config.PortRegisters(initial);
    }

    PortConfig current() {
      return regs.current();
    }

    int read(int register) {
      return regs.read(register, false);
    }

    void write(int register, int value) {
      if (register != ignoredRegister) {
        regs.write(register, value, false);
      }
    }
  }

  static final class Switch implements Device {
    final Port up = new Port(0, true);
    final TreeMap<Integer, Port> down = new TreeMap<>();

    Switch port(int number, Device below) {
      Port p = new Port(number, false);
      p.below = below;
      down.put(number, p);
      return this;
    }

    /** An NTB port: an endpoint on the switch's internal bus. */
    Switch ntb(int number, Endpoint linkSide) {
      Port p = new Port(number, false);
      p.ntb = linkSide;
      down.put(number, p);
      return this;
    }
  }

  final Device top;
  final List<ConfigOp> log = new ArrayList<>();
  /** Requests for which nothing answers at all (no completion), to test timeouts. */
  Predicate<ConfigOp> silent = op -> false;

  FakeDomain(Device top) {
    this.top = top;
  }

  static Endpoint memory(long... sizes) {
    List<Long> list = new ArrayList<>();
    for (long s : sizes) {
      list.add(s);
    }
    return new Endpoint(ConfigSpace.VENDOR_EMULATED, ConfigSpace.DEVICE_MEMORY, list, false);
  }

  static Endpoint ntbSide(long... sizes) {
    List<Long> list = new ArrayList<>();
    for (long s : sizes) {
      list.add(s);
    }
    return new Endpoint(ConfigSpace.VENDOR_PLX, ConfigSpace.DEVICE_NTB, list, true);
  }

  /** Drives an enumerator to the end over this domain, 100 ns model time per request. */
  EnumerationResult run(Enumerator e) {
    for (ConfigOp op = e.next(); op != null; op = e.next()) {
      e.accept(answer(op));
    }
    return e.result();
  }

  ConfigAnswer answer(ConfigOp op) {
    log.add(op);
    if (silent.test(op)) {
      return ConfigAnswer.noCompletion();
    }
    Integer value = onLink(top, 0, op);
    return value == null ? new ConfigAnswer(CompletionStatus.UNSUPPORTED_REQUEST, 0, 100)
        : new ConfigAnswer(CompletionStatus.SUCCESSFUL, value, 100);
  }

  /** A request travelling down the link whose bus is {@code linkBus} to {@code device}. */
  private Integer onLink(Device d, int linkBus, ConfigOp op) {
    if (d == null) {
      return null; // empty slot: the link is down
    }
    int bus = Bdf.bus(op.target());
    if (bus == linkBus) {
      return Bdf.device(op.target()) == 0 && Bdf.function(op.target()) == 0 ? access(d, op) : null;
    }
    if (!(d instanceof Switch s)) {
      return null;
    }
    BridgeRegisters up = s.up.bridge();
    if (bus == up.secondaryBus() && up.secondaryBus() != 0) {
      Port p = s.down.get(Bdf.device(op.target()));
      if (p == null || Bdf.function(op.target()) != 0) {
        return null;
      }
      return p.ntb != null ? endpoint(p.ntb, op) : port(p, op);
    }
    if (!up.claimsBus(bus) || up.secondaryBus() == 0) {
      return null;
    }
    for (Port p : s.down.values()) {
      if (p.ntb == null && p.bridge().secondaryBus() != 0 && p.bridge().claimsBus(bus)) {
        return onLink(p.below, p.bridge().secondaryBus(), op);
      }
    }
    return null;
  }

  private Integer access(Device d, ConfigOp op) {
    return d instanceof Endpoint e ? endpoint(e, op) : port(((Switch) d).up, op);
  }

  private static Integer endpoint(Endpoint e, ConfigOp op) {
    if (op.isWrite()) {
      e.bars.write(op.register(), op.writeValue());
      return 0;
    }
    if (BarRegisters.isBarRegister(op.register())) {
      return e.bars.read(op.register());
    }
    return ConfigSpace.readType0(e.vendor, e.device, 0x050000, List.of(), op.register());
  }

  private static Integer port(Port p, ConfigOp op) {
    if (op.isWrite()) {
      p.regs.write(op.register(), op.writeValue());
      return 0;
    }
    return p.regs.read(op.register());
  }
}

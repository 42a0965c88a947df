package io.rackfabric.persistence.controller;

import io.rackfabric.persistence.controller.Controller.AddDevice;
import io.rackfabric.persistence.controller.Controller.AddHost;
import io.rackfabric.persistence.controller.Controller.AssignVf;
import io.rackfabric.persistence.controller.Controller.CloseIommuPage;
import io.rackfabric.persistence.controller.Controller.CompleteEnumeration;
import io.rackfabric.persistence.controller.Controller.FreeVf;
import io.rackfabric.persistence.controller.Controller.InitPfDriver;
import io.rackfabric.persistence.controller.Controller.OpenIommuPage;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.ProgramRequesterId;
import io.rackfabric.persistence.controller.Controller.RemoveDevice;
import io.rackfabric.persistence.controller.Controller.RemoveHost;
import io.rackfabric.persistence.controller.Controller.Request;
import io.rackfabric.persistence.controller.Controller.ReprogramWindow;
import io.rackfabric.persistence.controller.Controller.TakeTemplateImage;
import io.rackfabric.persistence.controller.ControllerEvent.DeviceAdded;
import io.rackfabric.persistence.controller.ControllerEvent.DeviceRemoved;
import io.rackfabric.persistence.controller.ControllerEvent.EnumerationCompleted;
import io.rackfabric.persistence.controller.ControllerEvent.HostAdded;
import io.rackfabric.persistence.controller.ControllerEvent.HostRemoved;
import io.rackfabric.persistence.controller.ControllerEvent.IommuPageClosed;
import io.rackfabric.persistence.controller.ControllerEvent.IommuPageOpened;
import io.rackfabric.persistence.controller.ControllerEvent.PfDriverInitialized;
import io.rackfabric.persistence.controller.ControllerEvent.RequestApplied;
import io.rackfabric.persistence.controller.ControllerEvent.RequesterIdProgrammed;
import io.rackfabric.persistence.controller.ControllerEvent.TemplateImageTaken;
import io.rackfabric.persistence.controller.ControllerEvent.VfAssigned;
import io.rackfabric.persistence.controller.ControllerEvent.VfFreed;
import io.rackfabric.persistence.controller.ControllerEvent.WindowReprogrammed;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Command validation, a pure function: state + operation -> the events to persist, or an error
 * naming the bad value. Nothing invalid reaches the journal, so folding events never fails.
 * An event happens at {@code max(state's model time, operation's send time)}: the controller's
 * model clock never runs backwards.
 */
public final class ControllerRules {

  /** IOMMU page and translation granule. */
  public static final long PAGE = 4096;
  /** BARs per function (type 0 header). */
  public static final int BARS = 6;
  /** Entries of one requester-ID table (an ARI function number). */
  public static final int REQUESTER_ID_ENTRIES = 256;

  private ControllerRules() {}

  public static Decision decide(ControllerState s, Operation op) {
    if (op.at() < 0) {
      return Decision.reject("at=" + op.at() + " is negative (model time in ns)");
    }
    long at = Math.max(s.modelNow(), op.at());
    if (op instanceof Request o) {
      return request(s, o, at);
    } else if (op instanceof AddHost o) {
      return addHost(s, o, at);
    } else if (op instanceof RemoveHost o) {
      return knownHost(s, o.host()).map(Decision::reject)
          .orElseGet(() -> Decision.accept(new HostRemoved(o.host(), at)));
    } else if (op instanceof AddDevice o) {
      return addDevice(s, o, at);
    } else if (op instanceof RemoveDevice o) {
      return s.device(o.device()).isEmpty()
          ? Decision.reject("device=" + o.device() + " is unknown")
          : Decision.accept(new DeviceRemoved(o.device(), at));
    } else if (op instanceof CompleteEnumeration o) {
      if (blank(o.root())) {
        return Decision.reject("root=" + o.root() + " is blank");
      }
      if (s.enumeratedRoot().isPresent()) {
        return Decision.reject("root=" + o.root() + ": enumeration already completed for root="
            + s.enumeratedRoot().get() + " (later devices come as AddDevice)");
      }
      return Decision.accept(new EnumerationCompleted(o.root(), s.devices().size(), at));
    } else if (op instanceof InitPfDriver o) {
      return initPfDriver(s, o, at);
    } else if (op instanceof AssignVf o) {
      return assignVf(s, o, at);
    } else if (op instanceof FreeVf o) {
      return freeVf(s, o, at);
    } else if (op instanceof OpenIommuPage o) {
      return openPage(s, o, at);
    } else if (op instanceof CloseIommuPage o) {
      return closePage(s, o, at);
    } else if (op instanceof ReprogramWindow o) {
      return reprogramWindow(s, o, at);
    } else if (op instanceof ProgramRequesterId o) {
      return programRequesterId(s, o, at);
    } else if (LoanRules.decides(op)) {
      return LoanRules.decide(s, op, at);
    } else if (op instanceof Controller.RecordFabricDatabase o) {
      if (o.manager() == null || o.manager().isBlank()) {
        return Decision.reject("manager=" + o.manager() + " is blank");
      }
      if (o.change() == null) {
        return Decision.reject("change=null: a fabric database change needs its entries");
      }
      if (!o.change().full() && s.fabricDatabase().isEmpty()) {
        return Decision.reject("change=" + o.change().summary() + " is a delta, but no full copy was recorded");
      }
      return Decision.accept(new ControllerEvent.FabricDatabaseRecorded(o.manager(), o.change(), o.changedAt(), at));
    } else if (op instanceof TakeTemplateImage) {
      if (s.enumeratedRoot().isEmpty()) {
        return Decision.reject("template image before enumeration completed");
      }
      if (s.templateTaken()) {
        return Decision.reject("template image already taken at=" + s.templateAt() + "ns");
      }
      return Decision.accept(new TemplateImageTaken(at));
    }
    return Decision.reject("operation=" + op + " is not known"); // sealed: cannot happen
  }

  private static Decision request(ControllerState s, Request o, long at) {
    if (blank(o.client())) {
      return Decision.reject("client=" + o.client() + " is blank");
    }
    if (o.requestSeq() < 1) {
      return Decision.reject("requestSeq=" + o.requestSeq() + " is not positive");
    }
    if (o.operation() == null || o.operation() instanceof Request) {
      return Decision.reject("request " + o.client() + "#" + o.requestSeq() + " carries "
          + (o.operation() == null ? "no operation" : "another request"));
    }
    long last = s.lastRequest(o.client());
    if (o.requestSeq() <= last) {
      return Decision.applied("already applied: request " + o.client() + "#" + o.requestSeq()
          + " (last applied #" + last + ")");
    }
    Decision inner = decide(s, o.operation());
    if (!inner.accepted()) {
      return inner;
    }
    List<ControllerEvent> events = new ArrayList<>(inner.events());
    events.add(new RequestApplied(o.client(), o.requestSeq(), at));
    return Decision.accept(events);
  }

  private static Decision addHost(ControllerState s, AddHost o, long at) {
    if (blank(o.host())) {
      return Decision.reject("host=" + o.host() + " is blank");
    }
    if (s.host(o.host()).isPresent()) {
      return Decision.reject("host=" + o.host() + " is already known");
    }
    if (o.requester() < 0 || o.requester() > 0xFFFF) {
      return Decision.reject("requester=" + o.requester() + " is not a 16-bit requester ID");
    }
    if (s.knowsRequester(o.requester())) {
      return Decision.reject("requester=" + hex(o.requester()) + " is already in use");
    }
    if (o.memoryBase() < 0 || o.memoryBase() % PAGE != 0) {
      return Decision.reject("memoryBase=" + hex(o.memoryBase()) + " is not a 4 KiB aligned address");
    }
    if (o.memorySize() <= 0 || o.memorySize() % PAGE != 0) {
      return Decision.reject("memorySize=" + o.memorySize() + " is not a positive multiple of 4096");
    }
    if (o.memoryBase() + o.memorySize() < 0) {
      return Decision.reject("memorySize=" + o.memorySize() + " overflows from memoryBase="
          + hex(o.memoryBase()));
    }
    return Decision.accept(
        new HostAdded(o.host(), o.requester(), o.memoryBase(), o.memorySize(), at));
  }

  private static Decision addDevice(ControllerState s, AddDevice o, long at) {
    if (blank(o.device())) {
      return Decision.reject("device=" + o.device() + " is blank");
    }
    if (s.device(o.device()).isPresent()) {
      return Decision.reject("device=" + o.device() + " is already known");
    }
    if (o.kind() == null) {
      return Decision.reject("kind of device=" + o.device() + " is missing");
    }
    if (o.bdf() < 0 || o.bdf() > 0xFFFF) {
      return Decision.reject("bdf=" + o.bdf() + " is not a 16-bit bus/device/function");
    }
    if (s.knowsRequester(o.bdf())) {
      return Decision.reject("bdf=" + hex(o.bdf()) + " is already in use");
    }
    Optional<String> badBar = barProblem(o.device(), o.bars());
    if (badBar.isPresent()) {
      return Decision.reject(badBar.get());
    }
    if (o.totalVfs() < 0 || (o.totalVfs() > 0 && o.kind() != DeviceKind.NIC)) {
      return Decision.reject("totalVfs=" + o.totalVfs() + " for kind=" + o.kind()
          + " (only a NIC has VFs, never a negative number)");
    }
    return Decision.accept(new DeviceAdded(
        o.device(), o.kind(), o.bdf(), o.location(), o.bars(), o.totalVfs(), at));
  }

  /** What is wrong with a device's BARs (index, power-of-two size, alignment), if anything. */
  static Optional<String> barProblem(String device, List<BarRecord> bars) {
    Set<Integer> indexes = new HashSet<>();
    for (BarRecord bar : bars) {
      if (bar.index() < 0 || bar.index() >= BARS || !indexes.add(bar.index())) {
        return Optional.of("bar index=" + bar.index() + " of device=" + device
            + " is out of [0," + (BARS - 1) + "] or repeated");
      }
      if (bar.size() <= 0 || Long.bitCount(bar.size()) != 1) {
        return Optional.of("bar " + bar.index() + " size=" + bar.size() + " of device="
            + device + " is not a power of two");
      }
      if (bar.base() < 0 || bar.base() % bar.size() != 0) {
        return Optional.of("bar " + bar.index() + " base=" + hex(bar.base()) + " of device="
            + device + " is not aligned to its size " + bar.size());
      }
    }
    return Optional.empty();
  }

  private static Decision initPfDriver(ControllerState s, InitPfDriver o, long at) {
    Optional<String> notNic = nic(s, o.nic());
    if (notNic.isPresent()) {
      return Decision.reject(notNic.get());
    }
    if (s.driver(o.nic()).get().state() == PfDriverState.READY) {
      return Decision.reject("driver of nic=" + o.nic() + " is already initialised");
    }
    int total = s.device(o.nic()).get().totalVfs();
    if (o.vfs() < 1 || o.vfs() > total) {
      return Decision.reject("vfs=" + o.vfs() + " not in [1," + total + "] for nic=" + o.nic());
    }
    return Decision.accept(new PfDriverInitialized(o.nic(), o.vfs(), at));
  }

  private static Decision assignVf(ControllerState s, AssignVf o, long at) {
    Optional<String> bad = nic(s, o.nic()).or(() -> knownHost(s, o.host()));
    if (bad.isPresent()) {
      return Decision.reject(bad.get());
    }
    NicDriverRecord driver = s.driver(o.nic()).get();
    if (driver.state() != PfDriverState.READY) {
      return Decision.reject("driver of nic=" + o.nic() + " is " + driver.state()
          + ": no VF exists before InitPfDriver");
    }
    var assigned = s.vfs(o.nic());
    for (int vf = 0; vf < driver.vfsEnabled(); vf++) {
      if (!assigned.containsKey(vf)) {
        return Decision.accept(new VfAssigned(o.nic(), vf, o.host(), at));
      }
    }
    return Decision.reject("nic=" + o.nic() + " has no free VF: all " + driver.vfsEnabled()
        + " are assigned (host=" + o.host() + ")");
  }

  private static Decision freeVf(ControllerState s, FreeVf o, long at) {
    Optional<String> notNic = nic(s, o.nic());
    if (notNic.isPresent()) {
      return Decision.reject(notNic.get());
    }
    NicDriverRecord driver = s.driver(o.nic()).get();
    if (o.vf() < 0 || o.vf() >= driver.vfsEnabled()) {
      return Decision.reject("vf=" + o.vf() + " not in [0," + (driver.vfsEnabled() - 1)
          + "] for nic=" + o.nic());
    }
    if (!s.vfs(o.nic()).containsKey(o.vf())) {
      return Decision.reject("vf=" + o.vf() + " of nic=" + o.nic() + " is not assigned (double free)");
    }
    return Decision.accept(new VfFreed(o.nic(), o.vf(), at));
  }

  private static Decision openPage(ControllerState s, OpenIommuPage o, long at) {
    Optional<String> bad = knownHost(s, o.host()).or(() -> page(s, o.host(), o.pageAddress()));
    if (bad.isPresent()) {
      return Decision.reject(bad.get());
    }
    if (!s.knowsRequester(o.requester())) {
      return Decision.reject("requester=" + hex(o.requester()) + " is not a known host or device");
    }
    if (o.permission() == null) {
      return Decision.reject("permission is missing (READ, WRITE or READ_WRITE)");
    }
    if (s.permission(o.host(), o.requester(), o.pageAddress()).orElse(null) == o.permission()) {
      return Decision.reject("pageAddress=" + hex(o.pageAddress()) + " of host=" + o.host()
          + " is already open to requester=" + hex(o.requester()) + " with " + o.permission());
    }
    return Decision.accept(
        new IommuPageOpened(o.host(), o.requester(), o.pageAddress(), o.permission(), at));
  }

  private static Decision closePage(ControllerState s, CloseIommuPage o, long at) {
    Optional<String> bad = knownHost(s, o.host()).or(() -> page(s, o.host(), o.pageAddress()));
    if (bad.isPresent()) {
      return Decision.reject(bad.get());
    }
    if (s.permission(o.host(), o.requester(), o.pageAddress()).isEmpty()) {
      return Decision.reject("pageAddress=" + hex(o.pageAddress()) + " of host=" + o.host()
          + " is not open to requester=" + hex(o.requester()) + " (double close)");
    }
    return Decision.accept(new IommuPageClosed(o.host(), o.requester(), o.pageAddress(), at));
  }

  private static Decision reprogramWindow(ControllerState s, ReprogramWindow o, long at) {
    Optional<String> notNtb = ntb(s, o.ntb());
    if (notNtb.isPresent()) {
      return Decision.reject(notNtb.get());
    }
    if (o.bar() < 0 || o.bar() >= BARS) {
      return Decision.reject("bar=" + o.bar() + " not in [0," + (BARS - 1) + "]");
    }
    if (o.size() < PAGE || Long.bitCount(o.size()) != 1) {
      return Decision.reject("size=" + o.size() + " is not a power of two of at least 4096");
    }
    if (o.base() < 0 || o.base() % o.size() != 0) {
      return Decision.reject("base=" + hex(o.base()) + " is not aligned to size=" + o.size());
    }
    if (o.translatedBase() < 0 || o.translatedBase() % PAGE != 0) {
      return Decision.reject("translatedBase=" + hex(o.translatedBase()) + " is not 4 KiB aligned");
    }
    return Decision.accept(
        new WindowReprogrammed(o.ntb(), o.bar(), o.base(), o.size(), o.translatedBase(), at));
  }

  private static Decision programRequesterId(ControllerState s, ProgramRequesterId o, long at) {
    Optional<String> notNtb = ntb(s, o.ntb());
    if (notNtb.isPresent()) {
      return Decision.reject(notNtb.get());
    }
    if (o.direction() == null) {
      return Decision.reject("direction is missing (TO_VIRTUAL or TO_LINK)");
    }
    if (o.index() < 0 || o.index() >= REQUESTER_ID_ENTRIES) {
      return Decision.reject("index=" + o.index() + " not in [0," + (REQUESTER_ID_ENTRIES - 1) + "]");
    }
    if (o.original() < 0 || o.original() > 0xFFFF) {
      return Decision.reject("original=" + o.original() + " is not a 16-bit requester ID");
    }
    return Decision.accept(
        new RequesterIdProgrammed(o.ntb(), o.direction(), o.index(), o.original(), at));
  }

  static Optional<String> knownHost(ControllerState s, String host) {
    return s.host(host).isPresent() ? Optional.empty() : Optional.of("host=" + host + " is unknown");
  }

  private static Optional<String> nic(ControllerState s, String nic) {
    Optional<DeviceRecord> d = s.device(nic);
    if (d.isEmpty()) {
      return Optional.of("nic=" + nic + " is unknown");
    }
    return d.get().kind() == DeviceKind.NIC
        ? Optional.empty() : Optional.of("nic=" + nic + " is a " + d.get().kind() + ", not a NIC");
  }

  private static Optional<String> ntb(ControllerState s, String ntb) {
    Optional<DeviceRecord> d = s.device(ntb);
    if (d.isEmpty()) {
      return Optional.of("ntb=" + ntb + " is unknown");
    }
    return d.get().kind() == DeviceKind.NTB
        ? Optional.empty() : Optional.of("ntb=" + ntb + " is a " + d.get().kind() + ", not an NTB");
  }

  /** Whether a page address is aligned and inside the host's memory (the host is known). */
  private static Optional<String> page(ControllerState s, String host, long pageAddress) {
    if (pageAddress < 0 || pageAddress % PAGE != 0) {
      return Optional.of("pageAddress=" + hex(pageAddress) + " is not 4 KiB aligned");
    }
    HostRecord h = s.host(host).get();
    if (!h.contains(pageAddress)) {
      return Optional.of("pageAddress=" + hex(pageAddress) + " is outside host=" + host
          + " memory [" + hex(h.memoryBase()) + "," + hex(h.memoryBase() + h.memorySize()) + ")");
    }
    return Optional.empty();
  }

  static boolean blank(String s) {
    return s == null || s.isBlank();
  }

  static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }
}

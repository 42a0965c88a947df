package io.rackfabric.persistence.controller;

import static io.rackfabric.persistence.controller.ControllerRules.PAGE;
import static io.rackfabric.persistence.controller.ControllerRules.blank;
import static io.rackfabric.persistence.controller.ControllerRules.hex;
import static io.rackfabric.persistence.controller.ControllerRules.knownHost;

import io.rackfabric.persistence.controller.Controller.BorrowDevice;
import io.rackfabric.persistence.controller.Controller.MapDmaBuffer;
import io.rackfabric.persistence.controller.Controller.MoveLoanWindow;
import io.rackfabric.persistence.controller.Controller.OfferDevice;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.ReturnDevice;
import io.rackfabric.persistence.controller.Controller.UnmapDmaBuffer;
import io.rackfabric.persistence.controller.Controller.WithdrawOffer;
import io.rackfabric.persistence.controller.ControllerEvent.DeviceLent;
import io.rackfabric.persistence.controller.ControllerEvent.DeviceOffered;
import io.rackfabric.persistence.controller.ControllerEvent.DeviceReturned;
import io.rackfabric.persistence.controller.ControllerEvent.DmaBufferMapped;
import io.rackfabric.persistence.controller.ControllerEvent.DmaBufferUnmapped;
import io.rackfabric.persistence.controller.ControllerEvent.LoanWindowMoved;
import io.rackfabric.persistence.controller.ControllerEvent.MsiPathClosed;
import io.rackfabric.persistence.controller.ControllerEvent.MsiPathOpened;
import io.rackfabric.persistence.controller.ControllerEvent.OfferWithdrawn;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Validation of Device Lending's operations, a pure function like {@link ControllerRules}: one
 * borrower at a time, a lender never borrows its own device, a return only by the borrower, a
 * loan's MSI path in its borrower's RAM within its DMA window's reach, and each DMA buffer at the
 * lowest free offset of its loan's window (first fit, so the same requests
 * give the same addresses on every run and after a take-over).
 */
final class LoanRules {

  /** A virtual machine's name: it appears in events and the replay debugger's output. */
  private static final Pattern VM_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

  private LoanRules() {}

  static boolean decides(Operation op) {
    return op instanceof OfferDevice || op instanceof WithdrawOffer || op instanceof BorrowDevice
        || op instanceof ReturnDevice || op instanceof MapDmaBuffer || op instanceof UnmapDmaBuffer
        || op instanceof MoveLoanWindow;
  }

  static Decision decide(ControllerState s, Operation op, long at) {
    String blankName = blankName(op);
    if (blankName != null) {
      return Decision.reject(blankName);
    }
    if (op instanceof OfferDevice o) {
      return offer(s, o, at);
    } else if (op instanceof WithdrawOffer o) {
      return withdraw(s, o, at);
    } else if (op instanceof BorrowDevice o) {
      return borrow(s, o, at);
    } else if (op instanceof ReturnDevice o) {
      return lentTo(s, o.device(), o.borrower()).map(Decision::reject).orElseGet(() -> returned(s, o, at));
    } else if (op instanceof MapDmaBuffer o) {
      return map(s, o, at);
    } else if (op instanceof UnmapDmaBuffer o) {
      return unmap(s, o, at);
    } else if (op instanceof MoveLoanWindow o) {
      return move(s, o, at);
    }
    return Decision.reject("operation=" + op + " is not a lending operation");
  }

  private static Decision offer(ControllerState s, OfferDevice o, long at) {
    Optional<String> bad = knownHost(s, o.lender());
    if (bad.isPresent()) {
      return Decision.reject(bad.get());
    }
    if (o.kind() == null) {
      return Decision.reject("kind of device=" + o.device() + " is missing (GPU, DISK or NIC)");
    }
    Optional<OfferRecord> offered = s.loans().offer(o.device());
    if (offered.isPresent()) {
      return Decision.reject("device=" + o.device() + " is already offered by host=" + offered.get().lender());
    }
    if (o.bars().isEmpty()) {
      return Decision.reject("device=" + o.device() + " has no BAR: a borrower would reach nothing of it");
    }
    return ControllerRules.barProblem(o.device(), o.bars()).map(Decision::reject)
        .orElseGet(() -> Decision.accept(new DeviceOffered(o.device(), o.lender(), o.kind(), o.bars(), at)));
  }

  private static Decision withdraw(ControllerState s, WithdrawOffer o, long at) {
    Optional<OfferRecord> offered = s.loans().offer(o.device());
    if (offered.isEmpty() || !offered.get().lender().equals(o.lender())) {
      return Decision.reject("device=" + o.device() + " is not offered by host=" + o.lender());
    }
    Optional<LoanRecord> loan = s.loans().loan(o.device());
    if (loan.isPresent()) {
      return Decision.reject("device=" + o.device() + " is lent to host=" + loan.get().borrower()
          + ": it is returned before its offer is withdrawn");
    }
    return Decision.accept(new OfferWithdrawn(o.device(), at));
  }

  private static Decision borrow(ControllerState s, BorrowDevice o, long at) {
    Optional<OfferRecord> offered = s.loans().offer(o.device());
    if (offered.isEmpty()) {
      return Decision.reject("device=" + o.device() + " is not offered");
    }
    Optional<String> bad = knownHost(s, o.borrower());
    if (bad.isPresent()) {
      return Decision.reject(bad.get());
    }
    if (offered.get().lender().equals(o.borrower())) {
      return Decision.reject("host=" + o.borrower() + " lends device=" + o.device()
          + " itself: its own device needs no loan");
    }
    Optional<LoanRecord> loan = s.loans().loan(o.device());
    if (loan.isPresent()) {
      return Decision.reject("device=" + o.device() + " is already lent to host=" + loan.get().borrower()
          + (loan.get().vm() == null ? "" : " (vm=" + loan.get().vm() + ")") + " since at=" + loan.get().lentAt()
          + "ns: one borrower at a time");
    }
    if (o.vm() != null && !VM_NAME.matcher(o.vm()).matches()) {
      return Decision.reject("vm=" + o.vm() + " is not a name of letters, digits, '_', '.' and '-' (at most 64)");
    }
    String malformed = windowProblem(o.windowBase(), o.windowSize(), o.windowTarget());
    if (malformed != null) {
      return Decision.reject(malformed);
    }
    DeviceLent lent = new DeviceLent(o.device(), o.borrower(), o.vm(), o.windowBase(), o.windowSize(),
        o.windowTarget(), at);
    if (o.msiAddress() == BorrowDevice.NO_MSI) {
      return Decision.accept(lent);
    }
    String badMsi = msiProblem(s, o);
    return badMsi != null ? Decision.reject(badMsi)
        : Decision.accept(lent, new MsiPathOpened(o.device(), o.borrower(), o.msiAddress(), at));
  }

  /**
   * Why the MSI path {@code o} asks for cannot be set up, or null: the MSI is a dword write into the
   * borrower's RAM through the loan's DMA window, so its address is dword aligned, in the host's
   * memory and within the window's reach. A VM borrower's MSI is taken by its lender and forwarded
   * (Device Lending section 5): it has no MSI path into the borrower.
   */
  private static String msiProblem(ControllerState s, BorrowDevice o) {
    long msi = o.msiAddress();
    if (o.vm() != null) {
      return "vm=" + o.vm() + " takes its device's MSI through its lender's forwarding: msiAddress=" + hex(msi)
          + " names an MSI path into host=" + o.borrower() + " it does not have";
    }
    if (msi < 0 || msi % 4 != 0) {
      return "msiAddress=" + hex(msi) + " is not a dword-aligned address";
    }
    HostRecord host = s.host(o.borrower()).get();
    if (!host.contains(msi)) {
      return "msiAddress=" + hex(msi) + " is outside host=" + o.borrower() + " memory [" + hex(host.memoryBase())
          + "," + hex(host.memoryBase() + host.memorySize()) + ")";
    }
    if (msi < o.windowTarget() || msi - o.windowTarget() >= o.windowSize()) {
      return "msiAddress=" + hex(msi) + " is outside the DMA window's reach [" + hex(o.windowTarget()) + ","
          + hex(o.windowTarget() + o.windowSize()) + "): the device's MSI would not reach it";
    }
    return null;
  }

  /** A return: the loan's MSI path, if it has one, is torn down with it. */
  private static Decision returned(ControllerState s, ReturnDevice o, long at) {
    DeviceReturned returned = new DeviceReturned(o.device(), o.borrower(), at);
    return s.msiPath(o.device()).isEmpty() ? Decision.accept(returned)
        : Decision.accept(new MsiPathClosed(o.device(), o.borrower(), at), returned);
  }

  /** Why a DMA window of {@code size} at {@code base} reaching {@code target} is malformed, or null. */
  private static String windowProblem(long base, long size, long target) {
    if (size < PAGE || Long.bitCount(size) != 1) {
      return "windowSize=" + size + " is not a power of two of at least 4096";
    }
    if (base < 0 || base % size != 0) {
      return "windowBase=" + hex(base) + " is not aligned to windowSize=" + size;
    }
    if (target < 0 || target % PAGE != 0) {
      return "windowTarget=" + hex(target) + " is not a 4 KiB aligned address";
    }
    return null;
  }

  /**
   * A loan's DMA window moves (its borrower's fail-over to the other plane): only the borrower's
   * loan, to a well-formed window other than its own that still holds every mapped buffer at its
   * offset and reaches the same I/O addresses.
   */
  private static Decision move(ControllerState s, MoveLoanWindow o, long at) {
    Optional<String> bad = lentTo(s, o.device(), o.borrower());
    if (bad.isPresent()) {
      return Decision.reject(bad.get());
    }
    String malformed = windowProblem(o.windowBase(), o.windowSize(), o.windowTarget());
    if (malformed != null) {
      return Decision.reject(malformed);
    }
    LoanRecord loan = s.loans().loan(o.device()).get();
    if (loan.windowBase() == o.windowBase()) {
      return Decision.reject("device=" + o.device() + "'s window is already at windowBase=" + hex(o.windowBase()));
    }
    if (o.windowTarget() != loan.windowTarget()) {
      return Decision.reject("windowTarget=" + hex(o.windowTarget()) + " differs from the loan's "
          + hex(loan.windowTarget()) + ": the mapped buffers' I/O addresses would change");
    }
    long end = s.loans().mappings(o.device()).values().stream().mapToLong(m -> m.offset() + m.size()).max().orElse(0);
    if (end > o.windowSize()) {
      return Decision.reject("windowSize=" + o.windowSize() + " is smaller than the " + end
          + " bytes of device=" + o.device() + "'s window its buffers are mapped in");
    }
    Optional<MsiPath> msi = s.msiPath(o.device());
    if (msi.isPresent() && msi.get().msiAddress() - o.windowTarget() >= o.windowSize()) {
      return Decision.reject("windowSize=" + o.windowSize() + " does not reach device=" + o.device()
          + "'s MSI path at msiAddress=" + hex(msi.get().msiAddress()));
    }
    return Decision.accept(new LoanWindowMoved(o.device(), o.borrower(), o.windowBase(), o.windowSize(),
        o.windowTarget(), at));
  }

  private static Decision map(ControllerState s, MapDmaBuffer o, long at) {
    Optional<String> bad = lentTo(s, o.device(), o.borrower());
    if (bad.isPresent()) {
      return Decision.reject(bad.get());
    }
    if (o.bufferAddress() < 0 || o.bufferAddress() % PAGE != 0) {
      return Decision.reject("bufferAddress=" + hex(o.bufferAddress()) + " is not 4 KiB aligned");
    }
    if (o.size() <= 0 || o.size() % PAGE != 0) {
      return Decision.reject("size=" + o.size() + " is not a positive multiple of 4096");
    }
    LoanRecord loan = s.loans().loan(o.device()).get();
    // A VM's buffer is guest-physical (Device Lending, section 5): the host's range does not bound it.
    HostRecord host = s.host(o.borrower()).get();
    if (loan.vm() == null && !(host.contains(o.bufferAddress()) && o.size() <= host.memoryBase()
        + host.memorySize() - o.bufferAddress())) {
      return Decision.reject("buffer [" + hex(o.bufferAddress()) + "," + hex(o.bufferAddress() + o.size())
          + ") is outside host=" + o.borrower() + " memory [" + hex(host.memoryBase()) + ","
          + hex(host.memoryBase() + host.memorySize()) + ")");
    }
    long offset = firstFit(s.loans().mappings(o.device()).values(), loan.windowSize(), o.size());
    if (offset < 0) {
      return Decision.reject("window of device=" + o.device() + " (" + loan.windowSize() + " bytes) has no room for"
          + " size=" + o.size() + " (" + mapped(s, o.device()) + " bytes mapped)");
    }
    return Decision.accept(new DmaBufferMapped(o.device(), offset, o.bufferAddress(), o.size(), at));
  }

  private static Decision unmap(ControllerState s, UnmapDmaBuffer o, long at) {
    Optional<String> bad = lentTo(s, o.device(), o.borrower());
    if (bad.isPresent()) {
      return Decision.reject(bad.get());
    }
    LoanRecord loan = s.loans().loan(o.device()).get();
    long offset = o.deviceAddress() - loan.windowBase();
    if (offset < 0 || !s.loans().mappings(o.device()).containsKey(offset)) {
      return Decision.reject("deviceAddress=" + hex(o.deviceAddress()) + " is no mapped buffer of device="
          + o.device() + " (double unmap, or not a buffer's first byte)");
    }
    return Decision.accept(new DmaBufferUnmapped(o.device(), offset, at));
  }

  /** The first name of {@code op} that is blank, as "name=value is blank", or null. */
  private static String blankName(Operation op) {
    String[][] names;
    if (op instanceof OfferDevice o) {
      names = new String[][] {{"device", o.device()}, {"lender", o.lender()}};
    } else if (op instanceof WithdrawOffer o) {
      names = new String[][] {{"device", o.device()}, {"lender", o.lender()}};
    } else if (op instanceof BorrowDevice o) {
      names = new String[][] {{"device", o.device()}, {"borrower", o.borrower()}};
    } else if (op instanceof ReturnDevice o) {
      names = new String[][] {{"device", o.device()}, {"borrower", o.borrower()}};
    } else if (op instanceof MapDmaBuffer o) {
      names = new String[][] {{"device", o.device()}, {"borrower", o.borrower()}};
    } else if (op instanceof UnmapDmaBuffer o) {
      names = new String[][] {{"device", o.device()}, {"borrower", o.borrower()}};
    } else if (op instanceof MoveLoanWindow o) {
      names = new String[][] {{"device", o.device()}, {"borrower", o.borrower()}};
    } else {
      return null;
    }
    for (String[] n : names) {
      if (blank(n[1])) {
        return n[0] + "=" + n[1] + " is blank";
      }
    }
    return null;
  }

  /** Why {@code device} is not lent to {@code borrower}, if it is not. */
  private static Optional<String> lentTo(ControllerState s, String device, String borrower) {
    Optional<LoanRecord> loan = s.loans().loan(device);
    if (loan.isEmpty()) {
      return Optional.of("device=" + device + " is not borrowed" + (s.loans().offer(device).isEmpty()
          ? " (nor offered)" : ""));
    }
    if (!loan.get().borrower().equals(borrower)) {
      return Optional.of("device=" + device + " is lent to host=" + loan.get().borrower() + ", not to host=" + borrower);
    }
    return Optional.empty();
  }

  /** The lowest offset in a window of {@code windowSize} where {@code size} bytes fit, or -1. */
  static long firstFit(Iterable<DmaMapping> byOffset, long windowSize, long size) {
    long free = 0;
    for (DmaMapping m : byOffset) {
      if (m.offset() - free >= size) {
        return free;
      }
      free = m.offset() + m.size();
    }
    return windowSize - free >= size ? free : -1;
  }

  private static long mapped(ControllerState s, String device) {
    return s.loans().mappings(device).values().stream().mapToLong(DmaMapping::size).sum();
  }
}

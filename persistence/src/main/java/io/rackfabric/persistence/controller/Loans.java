package io.rackfabric.persistence.controller;

import io.rackfabric.persistence.controller.ControllerEvent.DeviceLent;
import io.rackfabric.persistence.controller.ControllerEvent.DeviceOffered;
import io.rackfabric.persistence.controller.ControllerEvent.DeviceReturned;
import io.rackfabric.persistence.controller.ControllerEvent.DmaBufferMapped;
import io.rackfabric.persistence.controller.ControllerEvent.DmaBufferUnmapped;
import io.rackfabric.persistence.controller.ControllerEvent.LoanWindowMoved;
import io.rackfabric.persistence.controller.ControllerEvent.MsiPathClosed;
import io.rackfabric.persistence.controller.ControllerEvent.MsiPathOpened;
import io.rackfabric.persistence.controller.ControllerEvent.OfferWithdrawn;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The controller's lending state (Device Lending): which devices are offered and by whom, which
 * are lent to whom with which DMA window, the DMA buffers mapped into each window and each loan's
 * MSI path ({@link MsiPath}). Part of
 * {@link ControllerState}, so a take-over keeps every loan.
 *
 * <p>Immutable: {@link #apply} returns a new value and copies only the maps the event touches.
 */
final class Loans {

  static final Loans EMPTY = new Loans(new TreeMap<>(), new TreeMap<>(), new TreeMap<>(), new TreeMap<>());

  private final TreeMap<String, OfferRecord> offers;
  private final TreeMap<String, LoanRecord> loans;
  /** device -> offset in its window -> mapping. */
  private final TreeMap<String, TreeMap<Long, DmaMapping>> mappings;
  /** device -> its loan's MSI path. */
  private final TreeMap<String, MsiPath> msiPaths;

  private Loans(TreeMap<String, OfferRecord> offers, TreeMap<String, LoanRecord> loans,
      TreeMap<String, TreeMap<Long, DmaMapping>> mappings, TreeMap<String, MsiPath> msiPaths) {
    this.offers = offers;
    this.loans = loans;
    this.mappings = mappings;
    this.msiPaths = msiPaths;
  }

  /** Whether {@code event} is one of lending's. */
  static boolean folds(ControllerEvent event) {
    return event instanceof DeviceOffered || event instanceof OfferWithdrawn || event instanceof DeviceLent
        || event instanceof DeviceReturned || event instanceof DmaBufferMapped || event instanceof DmaBufferUnmapped
        || event instanceof LoanWindowMoved || event instanceof MsiPathOpened || event instanceof MsiPathClosed;
  }

  Loans apply(ControllerEvent event) {
    if (event instanceof DeviceOffered e) {
      TreeMap<String, OfferRecord> o = new TreeMap<>(offers);
      o.put(e.device(), new OfferRecord(e.device(), e.lender(), e.kind(), e.bars()));
      return new Loans(o, loans, mappings, msiPaths);
    } else if (event instanceof OfferWithdrawn e) {
      TreeMap<String, OfferRecord> o = new TreeMap<>(offers);
      o.remove(e.device());
      return new Loans(o, loans, mappings, msiPaths);
    } else if (event instanceof DeviceLent e) {
      TreeMap<String, LoanRecord> l = new TreeMap<>(loans);
      // Validated: the device was offered. Folding never fails, so a journal that says otherwise
      // (written by another version) gives a loan of no known lender rather than an exception.
      String lender = Optional.ofNullable(offers.get(e.device())).map(OfferRecord::lender).orElse(null);
      l.put(e.device(), new LoanRecord(e.device(), lender, e.borrower(), e.vm(),
          e.windowBase(), e.windowSize(), e.windowTarget(), e.at()));
      return new Loans(offers, l, mappings, msiPaths);
    } else if (event instanceof DeviceReturned e) {
      return withoutLoan(e.device());
    } else if (event instanceof LoanWindowMoved e) {
      LoanRecord was = loans.get(e.device());
      if (was == null) {
        return this; // validated: the loan exists; a journal that says otherwise changes nothing
      }
      TreeMap<String, LoanRecord> l = new TreeMap<>(loans);
      l.put(e.device(), new LoanRecord(was.device(), was.lender(), was.borrower(), was.vm(), e.windowBase(),
          e.windowSize(), e.windowTarget(), was.lentAt()));
      return new Loans(offers, l, mappings, msiPaths);
    } else if (event instanceof DmaBufferMapped e) {
      TreeMap<String, TreeMap<Long, DmaMapping>> m = new TreeMap<>(mappings);
      TreeMap<Long, DmaMapping> of = new TreeMap<>(m.getOrDefault(e.device(), new TreeMap<>()));
      of.put(e.offset(), new DmaMapping(e.device(), e.offset(), e.bufferAddress(), e.size()));
      m.put(e.device(), of);
      return new Loans(offers, loans, m, msiPaths);
    } else if (event instanceof DmaBufferUnmapped e) {
      TreeMap<String, TreeMap<Long, DmaMapping>> m = new TreeMap<>(mappings);
      TreeMap<Long, DmaMapping> of = new TreeMap<>(m.getOrDefault(e.device(), new TreeMap<>()));
      of.remove(e.offset());
      if (of.isEmpty()) {
        m.remove(e.device());
      } else {
        m.put(e.device(), of);
      }
      return new Loans(offers, loans, m, msiPaths);
    } else if (event instanceof MsiPathOpened e) {
      TreeMap<String, MsiPath> p = new TreeMap<>(msiPaths);
      p.put(e.device(), new MsiPath(e.device(), e.borrower(), e.msiAddress()));
      return new Loans(offers, loans, mappings, p);
    } else if (event instanceof MsiPathClosed e) {
      TreeMap<String, MsiPath> p = new TreeMap<>(msiPaths);
      p.remove(e.device());
      return new Loans(offers, loans, mappings, p);
    }
    throw new IllegalArgumentException("not a lending event: " + event);
  }

  /** A loan ends: its DMA buffers' mappings and its MSI path go with it; the offer stays, lendable again. */
  private Loans withoutLoan(String device) {
    TreeMap<String, LoanRecord> l = new TreeMap<>(loans);
    l.remove(device);
    TreeMap<String, TreeMap<Long, DmaMapping>> m = new TreeMap<>(mappings);
    m.remove(device);
    TreeMap<String, MsiPath> p = new TreeMap<>(msiPaths);
    p.remove(device);
    return new Loans(offers, l, m, p);
  }

  /**
   * A host left the rack: what it offered is withdrawn and lent no more (its borrowers lose the
   * device), what it borrowed is returned.
   */
  Loans withoutHost(String host) {
    Loans s = this;
    for (LoanRecord loan : loans.values()) {
      if (host.equals(loan.lender()) || host.equals(loan.borrower())) {
        s = s.withoutLoan(loan.device());
      }
    }
    TreeMap<String, OfferRecord> o = new TreeMap<>(s.offers);
    o.values().removeIf(offer -> offer.lender().equals(host));
    return new Loans(o, s.loans, s.mappings, s.msiPaths);
  }

  Optional<OfferRecord> offer(String device) {
    return Optional.ofNullable(offers.get(device));
  }

  Optional<LoanRecord> loan(String device) {
    return Optional.ofNullable(loans.get(device));
  }

  /** The DMA buffers mapped into {@code device}'s window, by offset. */
  NavigableMap<Long, DmaMapping> mappings(String device) {
    return Collections.unmodifiableNavigableMap(mappings.getOrDefault(device, new TreeMap<>()));
  }

  /** The MSI path of {@code device}'s loan, if it has one. */
  Optional<MsiPath> msiPath(String device) {
    return Optional.ofNullable(msiPaths.get(device));
  }

  List<MsiPath> msiPathList() {
    return new ArrayList<>(msiPaths.values());
  }

  List<OfferRecord> offerList() {
    return new ArrayList<>(offers.values());
  }

  List<LoanRecord> loanList() {
    return new ArrayList<>(loans.values());
  }

  List<DmaMapping> mappingList() {
    List<DmaMapping> out = new ArrayList<>();
    mappings.values().forEach(m -> out.addAll(m.values()));
    return out;
  }

  static Loans of(List<OfferRecord> offers, List<LoanRecord> loans, List<DmaMapping> mappings,
      List<MsiPath> msiPaths) {
    TreeMap<String, OfferRecord> o = new TreeMap<>();
    offers.forEach(r -> o.put(r.device(), r));
    TreeMap<String, LoanRecord> l = new TreeMap<>();
    loans.forEach(r -> l.put(r.device(), r));
    TreeMap<String, TreeMap<Long, DmaMapping>> m = new TreeMap<>();
    mappings.forEach(r -> m.computeIfAbsent(r.device(), k -> new TreeMap<>()).put(r.offset(), r));
    TreeMap<String, MsiPath> p = new TreeMap<>();
    msiPaths.forEach(r -> p.put(r.device(), r));
    return new Loans(o, l, m, p);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Loans x && offers.equals(x.offers) && loans.equals(x.loans) && mappings.equals(x.mappings)
        && msiPaths.equals(x.msiPaths);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(offers, loans, mappings, msiPaths);
  }

  @Override
  public String toString() {
    return "offers=" + offers.keySet() + ", loans=" + loans.keySet();
  }
}

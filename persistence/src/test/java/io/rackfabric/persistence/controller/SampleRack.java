package io.rackfabric.persistence.controller;

import akka.actor.typed.ActorRef;
import io.rackfabric.persistence.controller.Controller.AddDevice;
import io.rackfabric.persistence.controller.Controller.AddHost;
import io.rackfabric.persistence.controller.Controller.AssignVf;
import io.rackfabric.persistence.controller.Controller.CloseIommuPage;
import io.rackfabric.persistence.controller.Controller.CompleteEnumeration;
import io.rackfabric.persistence.controller.Controller.FreeVf;
import io.rackfabric.persistence.controller.Controller.InitPfDriver;
import io.rackfabric.persistence.controller.Controller.OpenIommuPage;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.ProgramRequesterId;
import io.rackfabric.persistence.controller.Controller.ReprogramWindow;
import io.rackfabric.persistence.controller.Controller.TakeTemplateImage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A small rack as operations: two compute hosts with 32 GiB each, an NTB, a NIC with four VFs;
 * boot (enumeration, PF driver, template image), then a change log.
 */
public final class SampleRack {

  public static final long GIB = 1L << 30;

  private SampleRack() {}

  public static List<Function<ActorRef<OperationResult>, Controller.Operation>> boot() {
    List<Function<ActorRef<OperationResult>, Controller.Operation>> ops = new ArrayList<>();
    ops.add(r -> new AddHost("ch1", 0x0100, 32 * GIB, 32 * GIB, 1_000, r));
    ops.add(r -> new AddHost("ch2", 0x0200, 64 * GIB, 32 * GIB, 2_000, r));
    ops.add(r -> new AddDevice("ntb1", DeviceKind.NTB, 0x0300, "00.0/01.0", List.of(
        new BarRecord(2, 0x40_0000_0000L, 32 * GIB, true)), 0, 3_000, r));
    ops.add(r -> new AddDevice("nic0", DeviceKind.NIC, 0x0400, "00.0/02.0", List.of(
        new BarRecord(0, 0x1000_0000L, 1 << 20, false)), 4, 4_000, r));
    ops.add(r -> new CompleteEnumeration("mmh", 5_000, r));
    ops.add(r -> new InitPfDriver("nic0", 4, 6_000, r));
    ops.add(r -> new ReprogramWindow("ntb1", 2, 0x40_0000_0000L, 32 * GIB, 32 * GIB, 7_000, r));
    ops.add(r -> new ProgramRequesterId("ntb1", RequesterIdDirection.TO_LINK, 0, 0x0100, 7_500, r));
    ops.add(r -> new TakeTemplateImage(8_000, r));
    return ops;
  }

  public static List<Function<ActorRef<OperationResult>, Controller.Operation>> changes() {
    List<Function<ActorRef<OperationResult>, Controller.Operation>> ops = new ArrayList<>();
    ops.add(r -> new AssignVf("nic0", "ch1", 10_000, r));
    ops.add(r -> new AssignVf("nic0", "ch2", 11_000, r));
    ops.add(r -> new OpenIommuPage("ch1", 0x0200, 32 * GIB, PagePermission.READ_WRITE, 12_000, r));
    ops.add(r -> new OpenIommuPage("ch1", 0x0400, 32 * GIB + 4096, PagePermission.WRITE, 13_000, r));
    ops.add(r -> new CloseIommuPage("ch1", 0x0200, 32 * GIB, 14_000, r));
    ops.add(r -> new FreeVf("nic0", 0, 15_000, r));
    ops.add(r -> new AssignVf("nic0", "ch2", 16_000, r));
    return ops;
  }

  /**
   * Device Lending after the changes: ch2 offers a GPU, ch1 borrows it with a 1 GiB DMA window,
   * maps two buffers and unmaps the first; the loan stays.
   */
  public static List<Function<ActorRef<OperationResult>, Controller.Operation>> lending() {
    List<Function<ActorRef<OperationResult>, Controller.Operation>> ops = new ArrayList<>();
    ops.add(r -> new Controller.OfferDevice("gpu0", "ch2", LendableKind.GPU, List.of(
        new BarRecord(0, 0x2000_0000L, 16 << 10, false), new BarRecord(1, 0x4000_0000L, 256 << 20, true)),
        17_000, r));
    ops.add(r -> new Controller.BorrowDevice("gpu0", "ch1", null, 0x60_0000_0000L, GIB, 32 * GIB, 18_000, r));
    ops.add(r -> new Controller.MapDmaBuffer("gpu0", "ch1", 40 * GIB, 8192, 19_000, r));
    ops.add(r -> new Controller.MapDmaBuffer("gpu0", "ch1", 41 * GIB, 4096, 19_500, r));
    ops.add(r -> new Controller.UnmapDmaBuffer("gpu0", "ch1", 0x60_0000_0000L, 19_800, r));
    return ops;
  }

  /** ch1's MSI word for gpu0 in {@link #lendingWithMsi()}: in its memory, 64 KiB into the loan's window's reach. */
  public static final long MSI_WORD = 32 * GIB + 0x1_0000;

  /**
   * Device Lending with an MSI path: ch2 offers a GPU, ch1 borrows it with a 1 GiB DMA window and
   * its MSI word at {@link #MSI_WORD}, and maps a buffer; the loan stays.
   */
  public static List<Function<ActorRef<OperationResult>, Controller.Operation>> lendingWithMsi() {
    List<Function<ActorRef<OperationResult>, Controller.Operation>> ops = new ArrayList<>();
    ops.add(lending().get(0));
    ops.add(r -> new Controller.BorrowDevice("gpu0", "ch1", null, 0x60_0000_0000L, GIB, 32 * GIB, MSI_WORD, 18_000,
        r));
    ops.add(lending().get(2));
    return ops;
  }

  /** Boot, changes and lending, folded without an actor. */
  public static ControllerState expectedWithLoans(List<ControllerEvent> into) {
    ControllerState s = expected(into);
    for (var op : lending()) {
      Decision d = ControllerRules.decide(s, op.apply(null));
      if (!d.accepted()) {
        throw new AssertionError(d.error());
      }
      for (ControllerEvent e : d.events()) {
        s = s.apply(e);
        into.add(e);
      }
    }
    return s;
  }

  /** Boot then changes, folded without an actor: the state a controller must reach. */
  public static ControllerState expected(List<ControllerEvent> into) {
    ControllerState s = ControllerState.empty();
    List<Function<ActorRef<OperationResult>, Controller.Operation>> all = new ArrayList<>(boot());
    all.addAll(changes());
    for (var op : all) {
      Decision d = ControllerRules.decide(s, op.apply(null));
      if (!d.accepted()) {
        throw new AssertionError(d.error());
      }
      for (ControllerEvent e : d.events()) {
        s = s.apply(e);
        into.add(e);
      }
    }
    return s;
  }
}

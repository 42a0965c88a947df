package io.rackfabric.loadtests.scenario.language;

import java.util.List;
import java.util.Locale;

/**
 * One step of a scenario's {@code loans}: a Device Lending operation a host's control-plane driver
 * sends to the management hosts' controller at a model time (Device Lending, section 4; the
 * controller keeps every offer, loan and DMA buffer mapping as an event).
 *
 * @param index the step's place in the list, from 0
 * @param kind what the step does
 * @param device the lent device's endpoint
 * @param host who sends it: the device's lender for an offer or a withdrawal, else the borrower
 * @param atNs model time after the run's start at which the host sends it
 * @param windowBase for a borrow: the DMA window as the device reaches it (from the topology's NTB
 *     translations, as {@code rack lend} finds it); else 0
 * @param windowSize for a borrow: the window's size, bytes; else 0
 * @param windowTarget for a borrow: where the window lands in the borrower's RAM; else 0
 * @param msi for a borrow: the device's MSI word in the borrower's RAM, which the loan's MSI path
 *     opens to the device (the {@code msi.host} of the borrower's {@code gpu-copies} on the device, or
 *     the step's {@code msi}); else, or when it has none, {@link #NO_MSI}
 * @param buffer for map: the DMA buffer in the borrower's RAM; for unmap: the address the device
 *     reaches it at; else 0
 * @param size for map: the buffer's size, bytes; else 0
 * @param expectAccepted whether the controller is expected to accept it ({@code expect = accepted}
 *     or {@code rejected})
 * @param where {@code file:line} of the step
 * @param cause what sent it, when not a step of {@code loans}: a VM's guest action whose trap made
 *     its host's hypervisor borrow, map or return the device ({@code vm guest: command=0x6}); else
 *     empty
 */
public record LoanStep(int index, Kind kind, String device, String host, long atNs, long windowBase,
    long windowSize, long windowTarget, long msi, long buffer, long size, boolean expectAccepted, String where,
    String cause) {

  /** {@code msi} of a step that sets up no MSI path. */
  public static final long NO_MSI = -1;

  /** A step without an MSI path ({@link #NO_MSI}). */
  public LoanStep(int index, Kind kind, String device, String host, long atNs, long windowBase, long windowSize,
      long windowTarget, long buffer, long size, boolean expectAccepted, String where, String cause) {
    this(index, kind, device, host, atNs, windowBase, windowSize, windowTarget, NO_MSI, buffer, size,
        expectAccepted, where, cause);
  }

  /** Far below what a controller handles; each is a control-plane request of its host. */
  public static final int MAX_STEPS = 1_000;

  public enum Kind {
    OFFER, WITHDRAW, BORROW, MAP, UNMAP, RETURN;

    public String key() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The step as a line: {@code borrow gpu1 by ch2 at 20us}. */
  public String text() {
    return kind.key() + " " + device + " by " + host + " at " + Durations.text(atNs)
        + (cause.isEmpty() ? "" : " (" + cause + ")") + (expectAccepted ? "" : " (expected rejected)");
  }
}

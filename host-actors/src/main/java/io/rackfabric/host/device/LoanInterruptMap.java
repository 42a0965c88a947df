package io.rackfabric.host.device;

import java.util.Map;
import java.util.TreeMap;

/**
 * The MSI/MSI-X path back of one loan (Device Lending, section 4: the lender sets up the DMA window
 * into the borrower "and the MSI/MSI-X path back"): which word of the borrower's RAM each of the
 * lent device's vectors writes, reached through the loan's DMA window. The window maps device-side
 * [{@code deviceSide}, + {@code size}) onto the borrower's RAM at {@code borrowerSide}, so a vector
 * whose interrupt word is the borrower's {@code w} is programmed with the device-side address
 * {@code deviceSide + (w - borrowerSide)}; its message then crosses the NTB like the loan's data, and
 * its latency is that path's.
 *
 * <p>Set up when the loan is made ({@link #map} per vector, then {@link #programInto} the device's
 * {@link MsixTable}); {@link #deliver} follows a raised vector to the borrower, or says why not: a
 * loan without a reverse MSI mapping for that vector, a vector outside the table or masked, or a
 * message address outside the window (each counted, never delivered). A plain class, one per loan.
 */
public final class LoanInterruptMap {

  /** Where a raised vector's message lands: the borrower's word, through device-side {@code deviceAddress}. */
  public record Delivered(int vector, long deviceAddress, long borrowerAddress, int data) {}

  private final long deviceSide;
  private final long size;
  private final long borrowerSide;
  private final Map<Integer, Long> words = new TreeMap<>();
  private long noMsiPath;
  private long outsideWindow;
  private long withheld;

  /** The loan's DMA window: device-side {@code deviceSide} lands at the borrower's {@code borrowerSide}. */
  public LoanInterruptMap(long deviceSide, long size, long borrowerSide) {
    if (size <= 0) {
      throw new IllegalArgumentException("size=" + size + ": a loan's DMA window has at least one byte");
    }
    this.deviceSide = deviceSide;
    this.size = size;
    this.borrowerSide = borrowerSide;
  }

  /**
   * Maps {@code vector} to the borrower's interrupt word {@code borrowerWord}; the device-side address
   * it must be programmed with. Refused (IllegalArgumentException naming the value) when the word is
   * not dword aligned or the window does not reach it, or the vector is negative.
   */
  public long map(int vector, long borrowerWord) {
    if (vector < 0) {
      throw new IllegalArgumentException("vector=" + vector + " is negative");
    }
    if ((borrowerWord & 3) != 0) {
      throw new IllegalArgumentException("MSI word 0x" + Long.toHexString(borrowerWord) + " is not dword aligned");
    }
    if (!reaches(borrowerWord)) {
      throw new IllegalArgumentException("MSI word 0x" + Long.toHexString(borrowerWord)
          + " is outside the loan's DMA window onto the borrower [0x" + Long.toHexString(borrowerSide) + ", 0x"
          + Long.toHexString(borrowerSide + size) + "): the device's message would not reach it");
    }
    words.put(vector, borrowerWord);
    return deviceAddress(borrowerWord);
  }

  /** The device-side address the borrower's {@code borrowerWord} is reached at through the window. */
  public long deviceAddress(long borrowerWord) {
    return deviceSide + (borrowerWord - borrowerSide);
  }

  /**
   * Programs every mapped vector of {@code table}, unmasked, with its device-side address and data
   * {@code dataBase + vector}; false when a vector is outside the table (that vector left as it was).
   */
  public boolean programInto(MsixTable table, int dataBase) {
    boolean all = true;
    for (Map.Entry<Integer, Long> e : words.entrySet()) {
      all &= table.program(e.getKey(), deviceAddress(e.getValue()), dataBase + e.getKey(), false);
    }
    return all;
  }

  /** True when the loan has a reverse MSI mapping for {@code vector}. */
  public boolean maps(int vector) {
    return words.containsKey(vector);
  }

  /** The vectors mapped, ascending. */
  public java.util.Set<Integer> vectors() {
    return java.util.Collections.unmodifiableSet(words.keySet());
  }

  /**
   * Raises {@code vector} of {@code table} and follows its message to the borrower: the delivery, or
   * null with the denial counted (no reverse mapping for the vector, the table withheld it, or its
   * address falls outside the window).
   */
  public Delivered deliver(MsixTable table, int vector) {
    if (!words.containsKey(vector)) {
      noMsiPath++;
      return null;
    }
    MsixTable.Outcome o = table.message(vector);
    if (!(o instanceof MsixTable.Send send)) {
      withheld++;
      return null;
    }
    long at = send.address() - deviceSide;
    if (at < 0 || at >= size) {
      outsideWindow++;
      return null;
    }
    return new Delivered(vector, send.address(), borrowerSide + at, send.data());
  }

  private boolean reaches(long borrowerWord) {
    long at = borrowerWord - borrowerSide;
    return at >= 0 && at + 4 <= size;
  }

  /** Raised vectors the loan has no reverse MSI mapping for. */
  public long noMsiPathDenials() {
    return noMsiPath;
  }

  /** Raised vectors whose table withheld them (masked, not programmed, outside the table). */
  public long withheldDenials() {
    return withheld;
  }

  /** Messages whose address the loan's window does not carry to the borrower. */
  public long outsideWindowDenials() {
    return outsideWindow;
  }
}

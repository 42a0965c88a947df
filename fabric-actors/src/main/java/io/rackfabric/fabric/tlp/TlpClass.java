package io.rackfabric.fabric.tlp;

/** The three flow-control classes of PCIe; each has its own header and data credits. */
public enum TlpClass {
  POSTED,
  NON_POSTED,
  COMPLETION;

  public static final TlpClass[] ALL = values();
}

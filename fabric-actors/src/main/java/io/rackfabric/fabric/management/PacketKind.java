package io.rackfabric.fabric.management;

/** The management packets (AS-FM section 3.2 and 4), as counted and printed. */
public enum PacketKind {
  PI4_READ_REQUEST("PI-4 read request"),
  PI4_COMPLETION_WITH_DATA("PI-4 read completion with data"),
  PI4_COMPLETION_WITH_ERROR("PI-4 read completion with error"),
  PI4_WRITE("PI-4 write"),
  PI5_EVENT("PI-5 event");

  private final String label;

  PacketKind(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}

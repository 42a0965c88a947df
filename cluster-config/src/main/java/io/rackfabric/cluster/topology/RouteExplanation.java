package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.tlp.Bdf;
import java.util.List;

/**
 * Where one memory request goes through a topology's initial state, hop by hop, and how it ends.
 * Produced by {@link RouteExplainer}; {@link #toText()} renders it for {@code rack route}.
 *
 * @param requester the requester ID the request starts with
 * @param copies for a multicast write, one explanation per copy (their hops start after the
 *     switch that replicated it); empty otherwise
 */
public record RouteExplanation(
    String from,
    long address,
    boolean read,
    int requester,
    List<Hop> hops,
    Outcome outcome,
    List<RouteExplanation> copies) {

  public RouteExplanation {
    hops = List.copyOf(hops);
    copies = List.copyOf(copies);
  }

  /**
   * One component the request passed through or ended at.
   *
   * @param in the switch port it entered by (null at an endpoint)
   * @param out the switch port it left by (null at an endpoint or where it stopped)
   * @param matched why it went where it went: the switch router's reason, or the BAR that took it
   * @param translations NTB translations applied here, in order
   * @param address the request's address after this hop
   * @param requester the request's requester ID after this hop (an NTB proxies it)
   */
  public record Hop(
      String component,
      String in,
      String out,
      String matched,
      List<Translation> translations,
      long address,
      int requester) {

    public Hop {
      translations = List.copyOf(translations);
    }
  }

  /**
   * An NTB crossing: the address and the requester ID before and after. {@code toString} is the
   * short form {@code "ntb0: 0x90040 -> 0x40"}.
   *
   * @param toVirtual true when leaving the switch into the slave domain, false when entering it
   */
  public record Translation(
      String port, boolean toVirtual, long from, long to, int requesterFrom, int requesterTo) {

    @Override
    public String toString() {
      return port + ": " + Addresses.hex(from) + " -> " + Addresses.hex(to);
    }
  }

  public enum Kind {
    /** An endpoint's BAR (or a root's memory) took it. */
    DELIVERED,
    /** A read nothing claims: answered with an Unsupported Request completion. */
    UNSUPPORTED_REQUEST,
    /** A posted write nothing claims (dropped and counted, as PCIe does), or a silent drop. */
    DROPPED,
    /** A multicast write: see the copies. */
    MULTICAST
  }

  /**
   * @param component where it ended: the endpoint that took it, or where it was refused
   * @param bar the BAR index that took it, -1 otherwise
   * @param barRange that BAR, null otherwise
   * @param address its address where it ended
   * @param reason why it ended there
   */
  public record Outcome(
      Kind kind, String component, int bar, AddressRange barRange, long address, String reason) {}

  /** Delivered, or for a multicast write, every copy delivered. */
  public boolean delivered() {
    if (outcome.kind() == Kind.MULTICAST) {
      return !copies.isEmpty() && copies.stream().allMatch(RouteExplanation::delivered);
    }
    return outcome.kind() == Kind.DELIVERED;
  }

  /** The hop at a component, the first if it is passed more than once; null if never. */
  public Hop hopAt(String component) {
    return hops.stream().filter(h -> h.component().equals(component)).findFirst().orElse(null);
  }

  /** How it ended, in a few words: {@code delivered to ch2 at 0x40}, {@code dropped at tor: ...}. */
  public String ending() {
    return switch (outcome.kind()) {
      case DELIVERED -> "delivered to " + outcome.component() + " at " + Addresses.hex(outcome.address());
      case MULTICAST -> "multicast at " + outcome.component();
      case UNSUPPORTED_REQUEST -> "Unsupported Request at " + outcome.component() + ": " + outcome.reason();
      case DROPPED -> "dropped at " + outcome.component() + ": " + outcome.reason();
    };
  }

  /** The component where it ended (an endpoint when delivered). */
  public String target() {
    return outcome.component();
  }

  /** The components it passed, in one line: {@code ch1 > tor(ntb1>ntb2) > ch2}. */
  public String path() {
    StringBuilder sb = new StringBuilder();
    for (Hop h : hops) {
      if (sb.length() > 0) {
        sb.append(" > ");
      }
      sb.append(h.component());
      if (h.in() != null || h.out() != null) {
        sb.append('(').append(h.in() == null ? "" : h.in()).append('>').append(h.out() == null ? "" : h.out()).append(')');
      }
    }
    return sb.toString();
  }

  public String toText() {
    StringBuilder sb = new StringBuilder();
    sb.append(read ? "MemRead " : "MemWrite ").append(Addresses.hex(address))
        .append(" from ").append(from)
        .append(" (requester ").append(Bdf.format(requester)).append(")\n");
    render(sb, "", 1, requester);
    return sb.toString();
  }

  private void render(StringBuilder sb, String indent, int firstNumber, int requesterBefore) {
    int n = firstNumber;
    int width = 0;
    for (Hop h : hops) {
      width = Math.max(width, place(h).length());
    }
    int req = requesterBefore;
    for (Hop h : hops) {
      sb.append(indent).append(String.format("%3d  %-" + width + "s  ", n++, place(h)))
          .append(h.matched()).append('\n');
      String pad = indent + " ".repeat(5 + width + 2);
      for (Translation t : h.translations()) {
        sb.append(pad).append("NTB ").append(t).append(t.toVirtual() ? " (link -> virtual)" : " (virtual -> link)");
        if (t.requesterFrom() != t.requesterTo()) {
          sb.append(", requester ").append(Bdf.format(t.requesterFrom())).append(" -> ")
              .append(Bdf.format(t.requesterTo()));
        }
        sb.append('\n');
      }
      req = h.requester();
    }
    sb.append(indent).append(outcomeText()).append('\n');
    for (int i = 0; i < copies.size(); i++) {
      RouteExplanation copy = copies.get(i);
      sb.append(indent).append("  copy ").append(i + 1).append(" of ").append(copies.size())
          .append(":\n");
      copy.render(sb, indent + "    ", n, req);
    }
  }

  private static String place(Hop h) {
    if (h.in() == null && h.out() == null) {
      return h.component();
    }
    if (h.out() == null) {
      return h.component() + "  in " + h.in();
    }
    return h.component() + "  " + (h.in() == null ? "" : h.in() + " ") + "-> " + h.out();
  }

  private String outcomeText() {
    // The last hop usually says why already; the outcome line repeats it only when it adds to it.
    String last = hops.isEmpty() ? null : hops.get(hops.size() - 1).matched();
    String why = outcome.reason() == null || outcome.reason().equals(last) ? "" : ": " + outcome.reason();
    return switch (outcome.kind()) {
      case DELIVERED -> "delivered: " + outcome.component() + " " + (outcome.reason() != null
          && outcome.reason().contains("memory") ? "memory " : "") + "BAR" + outcome.bar() + " "
          + outcome.barRange() + " at " + Addresses.hex(outcome.address());
      case UNSUPPORTED_REQUEST -> "Unsupported Request at " + outcome.component() + why
          + " (the completion goes back to the requester)";
      case DROPPED -> "dropped at " + outcome.component() + why
          + (read ? "" : " (a posted write gets no answer; it is counted)");
      case MULTICAST -> "multicast at " + outcome.component() + ": " + outcome.reason();
    };
  }
}

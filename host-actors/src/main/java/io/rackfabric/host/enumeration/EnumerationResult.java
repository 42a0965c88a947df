package io.rackfabric.host.enumeration;

import akka.actor.NoSerializationVerificationNeeded;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What an enumeration found and programmed: the functions on the root's bus with everything below
 * them, the slots' reservations (slot mode), what went wrong, and what it cost: configuration
 * requests issued and the model time they took (the sum of their round trips, each request issued
 * when the previous one completed). Not a wire message: it stays on the node that enumerated.
 */
public record EnumerationResult(
    String root,
    AllocationPolicy.Mode mode,
    List<FunctionNode> functions,
    List<SlotReservation> slots,
    List<String> problems,
    int configRequests,
    long modelNs) implements NoSerializationVerificationNeeded {

  public EnumerationResult {
    functions = List.copyOf(functions);
    slots = List.copyOf(slots);
    problems = List.copyOf(problems);
  }

  /** A run that could not start or finish, with the reason. */
  public static EnumerationResult failed(String root, AllocationPolicy.Mode mode, String problem) {
    return new EnumerationResult(root, mode, List.of(), List.of(), List.of(problem), 0, 0);
  }

  public boolean ok() {
    return problems.isEmpty();
  }

  /** Every function, depth first. */
  public List<FunctionNode> all() {
    List<FunctionNode> out = new ArrayList<>();
    functions.forEach(f -> out.addAll(f.subtree()));
    return out;
  }

  public Optional<FunctionNode> at(String location) {
    return all().stream().filter(f -> f.location().equals(location)).findFirst();
  }

  public Optional<FunctionNode> byBdf(int bdf) {
    return all().stream().filter(f -> f.bdf() == bdf).findFirst();
  }

  /** Endpoints and NTB endpoints, depth first. */
  public List<FunctionNode> endpoints() {
    return all().stream().filter(f -> !f.kind().bridge()).toList();
  }

  public List<SlotReservation> slot(int number) {
    return slots.stream().filter(s -> s.slot() == number).toList();
  }

  /** {@code lspci -t}-like tree, then tables of buses, windows, BARs and slots. */
  public String render() {
    return EnumerationText.render(this);
  }
}

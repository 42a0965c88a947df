package io.rackfabric.host.enumeration;

import java.util.List;
import java.util.function.Supplier;

/**
 * Enumerates a PCIe domain from its root complex the way enumeration software does, one
 * configuration request at a time: {@link #next()} says which request to issue, {@link
 * #accept(ConfigAnswer)} takes its answer, until {@code next()} returns null and {@link #result()}
 * holds what was found. No actor and no clock inside: a test drives it over a fake configuration
 * space, {@link EnumerationRun} over a root endpoint.
 *
 * <ol>
 *   <li>Discovery and bus numbers, depth first ({@link FabricWalk}, {@link BarSizing}); in a
 *       {@link SlotGroup} every slot gets its reserved range ({@link SlotReservations}).
 *   <li>Allocation of BARs and bridge windows ({@link BarAssignment}).
 *   <li>Programming: every BAR and window is written, then every written register read back
 *       ({@link RegisterProgramming}).
 * </ol>
 *
 * A rescan of one slot is {@link SlotRescan}. The steps share one {@link ConfigRequests}, which
 * issues the requests in order and keeps the problems. Problems (a bus range exhausted, a BAR that
 * does not fit) are recorded in the result and enumeration carries on around them; nothing is
 * thrown once it has started.
 */
public final class Enumerator {

  /** A bridge window's granule: its base and limit registers hold address bits 31..20. */
  public static final long WINDOW_GRANULE = 1L << 20;

  private final String root;
  private final AllocationPolicy policy;
  private final ConfigRequests requests = new ConfigRequests();
  private final RegisterProgramming programming = new RegisterProgramming(requests);
  private final SlotReservations slots;
  private final FabricWalk walk;
  private final BarAssignment assignment;
  /** Builds the result once the agenda is empty; a rescan builds it on the previous one. */
  private Supplier<EnumerationResult> finisher = this::buildResult;
  private EnumerationResult result;

  private Enumerator(String root, AllocationPolicy policy) {
    this.root = root;
    this.policy = policy;
    this.slots = new SlotReservations(policy, requests);
    this.walk = new FabricWalk(requests, programming, slots);
    this.assignment = new BarAssignment(policy, requests);
  }

  /** A full enumeration of the domain below {@code root} (a name, for the result). */
  public static Enumerator enumerate(String root, AllocationPolicy policy) {
    Enumerator e = new Enumerator(root, policy);
    List<ProbedFunction> top = e.walk.rootBus().children;
    e.requests.then(() -> e.walk.scanBus(e.walk.rootBus(), false), e.slots::checkGroupsFound, () -> {
      e.assignment.assign(top);
      e.programming.programAndVerify(top);
    });
    return e;
  }

  /**
   * Re-enumerates only slot {@code slot} of every group that has it, after a host was plugged
   * into it or pulled out (Multi-peer: the pre-assigned bus number reaches the new processor, its
   * BAR gets the slot's block, nothing else is touched). Returns {@code previous} with that slot's
   * functions replaced; its request count and model time are this rescan's.
   *
   * @throws IllegalArgumentException when {@code previous} has no reservation for the slot or the
   *     policy lacks one of its groups
   */
  public static Enumerator rescanSlot(EnumerationResult previous, AllocationPolicy policy, int slot) {
    List<SlotRescan.Rescan> rescans = SlotRescan.plan(previous, policy, slot);
    Enumerator e = new Enumerator(previous.root(), policy);
    SlotRescan rescan = new SlotRescan(previous, e.requests, e.walk, e.assignment, e.programming);
    e.finisher = () -> rescan.finish(rescans);
    e.requests.then(rescans.stream().<Runnable>map(r -> () -> rescan.start(r)).toList());
    return e;
  }

  /** The next request to issue, or null when enumeration is over and {@link #result()} is ready. */
  public ConfigOp next() {
    ConfigOp op = requests.next();
    if (op == null && result == null) {
      result = finisher.get();
    }
    return op;
  }

  /** The answer to the request {@link #next()} returned last. */
  public void accept(ConfigAnswer answer) {
    requests.accept(answer);
  }

  public boolean finished() {
    return result != null;
  }

  public EnumerationResult result() {
    if (result == null) {
      throw new IllegalStateException("enumeration of " + root + " is not finished: call next() until it returns null");
    }
    return result;
  }

  /** A function's location below {@code parent}'s: {@code 00.0}, {@code 00.0/03.0}, ... */
  public static String location(String parent, int device, int function) {
    String me = String.format("%02x.%x", device, function);
    return parent.isEmpty() ? me : parent + "/" + me;
  }

  private EnumerationResult buildResult() {
    List<FunctionNode> functions = walk.rootBus().children.stream().map(FunctionTree::toNode).toList();
    return new EnumerationResult(root, policy.mode(), functions, slots.reservations(), requests.problems(),
        requests.requests(), requests.modelNs());
  }
}

package io.rackfabric.host.iommu;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.endpoint.AccessCheckChange;
import io.rackfabric.fabric.endpoint.InboundAccessCheck;
import io.rackfabric.persistence.controller.ControllerEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The management host's side of IOMMU isolation, without the actor: turns host-level control
 * requests ("open this page of C to B") into the changes its root endpoint applies, one per
 * requester ID B arrives under at C, and remembers which hosts have an IOMMU.
 *
 * <p>In a rack whose hosts start isolated ({@link #initialCheck}, the rack's nodes create the
 * hosts' root endpoints with it), every host denies the others until pages are opened. Otherwise a
 * host gets its IOMMU only when isolation is first asked for it, so hosts nobody isolates keep
 * serving everyone. Installing it opens the host's control page read/write to every other
 * host at once, in the same all-or-nothing change: the fail-over protocol writes there (the MH's
 * notifications and responses, the multicast copies) and must never be blocked by isolation.
 *
 * <p>Not thread-safe: owned by the management host's actor.
 */
public final class IsolationControl {

  /** The change to send to {@code target}'s root endpoint, or the error to answer with. */
  public record Request(IsolationPlan.Target target, AccessCheckChange change, String error) {

    static Request refused(String error) {
      return new Request(null, null, error);
    }
  }

  private final IsolationPlan plan;
  private final long controlPage;
  /** Local ranges every host's pages are open in to every other host from the start. */
  private final List<AddressRange> shared;
  private final Set<String> isolated = new HashSet<>();

  /** @param controlPage the address of every host's control page, or -1 when there is none */
  public IsolationControl(IsolationPlan plan, long controlPage) {
    this(plan, controlPage, false);
  }

  /**
   * @param isolatedFromStart every host of the plan already has the IOMMU {@link #initialCheck}
   *     gives (its root endpoint was created with it): opens go straight to it, nothing installs
   */
  public IsolationControl(IsolationPlan plan, long controlPage, boolean isolatedFromStart) {
    this(plan, controlPage, isolatedFromStart, List.of());
  }

  /**
   * @param shared ranges of every host's local memory that host software of all hosts shares (the
   *     datagram service's queues): {@link #initialCheck} opens their pages, as far as they lie
   *     in the host's memory, read/write to every other host, as it does the control page
   */
  public IsolationControl(IsolationPlan plan, long controlPage, boolean isolatedFromStart,
      List<AddressRange> shared) {
    this.plan = plan == null ? IsolationPlan.none() : plan;
    this.controlPage = controlPage;
    this.shared = List.copyOf(shared);
    if (isolatedFromStart) {
      isolated.addAll(this.plan.hosts());
    }
  }

  /**
   * The inbound check {@code host}'s root endpoint starts with in a rack whose hosts deny by
   * default: an IOMMU over its memory governing every ID another host of the plan arrives under,
   * with only the control page open to them; requesters the plan does not place (the host's own
   * devices) are served. Empty when the plan does not know the host.
   */
  public java.util.Optional<InboundAccessCheck> initialCheck(String host) {
    IsolationPlan.Target t = plan.target(host).orElse(null);
    if (t == null) {
      return java.util.Optional.empty();
    }
    int[] governed = t.arrivalIds().values().stream().flatMap(List::stream).mapToInt(Integer::intValue)
        .distinct().toArray();
    InboundAccessCheck check = new IommuAccessCheck(new IommuTable(host, t.memory()), governed);
    List<AccessCheckChange> opens = new ArrayList<>(controlPageOpens(t));
    for (AddressRange range : shared) {
      for (AddressRange memory : t.memory()) {
        long first = Math.max(range.base(), memory.base()) & ~(IommuTable.PAGE_SIZE - 1);
        long last = Math.min(range.limit(), memory.limit());
        if (Long.compareUnsigned(first, last) <= 0) {
          long pages = (last - first) / IommuTable.PAGE_SIZE + 1;
          new TreeMap<>(t.arrivalIds()).forEach((requester, ids) -> ids.forEach(id ->
              opens.add(new OpenIommuPages(id, first, pages, Permission.READ_WRITE))));
        }
      }
    }
    if (!opens.isEmpty()) {
      AccessCheckChange.Result r = new IommuChanges(opens).applyTo(host, check);
      if (!r.accepted()) {
        throw new IllegalStateException("host " + host + ": its control page cannot be opened: " + r.detail());
      }
      check = r.check();
    }
    return java.util.Optional.of(check);
  }

  /** The control page open read/write to every ID of every other host, sorted so every MH builds the same. */
  private List<AccessCheckChange> controlPageOpens(IsolationPlan.Target t) {
    List<AccessCheckChange> changes = new ArrayList<>();
    if (controlPage >= 0) {
      new TreeMap<>(t.arrivalIds()).forEach((requester, ids) -> ids.forEach(id ->
          changes.add(new OpenIommuPages(id, controlPage, 1, Permission.READ_WRITE))));
    }
    return changes;
  }

  public boolean isolated(String host) {
    return isolated.contains(host);
  }

  /**
   * Installs {@code host}'s IOMMU with its control page open to every other host; counts it as
   * isolated from now on (call {@link #enableFailed} if the endpoint refuses). An error when the
   * host is unknown or already isolated.
   */
  public Request enable(String host) {
    IsolationPlan.Target t = plan.target(host).orElse(null);
    if (t == null) {
      return Request.refused(unknownTarget(host));
    }
    if (isolated.contains(host)) {
      return Request.refused("isolation is already enabled for " + host);
    }
    List<AccessCheckChange> changes = new ArrayList<>();
    changes.add(new InstallIommu(host, t.memory()));
    changes.addAll(controlPageOpens(t));
    isolated.add(host);
    return new Request(t, new IommuChanges(changes), null);
  }

  /** The endpoint refused {@link #enable}'s change: {@code host} has no IOMMU after all. */
  public void enableFailed(String host) {
    isolated.remove(host);
  }

  /**
   * Opens {@code pageCount} pages from {@code pageAddress} of {@code target} to {@code requester}
   * under each ID it arrives with. Checked here against the same rules the IOMMU applies, so that
   * a bad request is answered before anything (an IOMMU install included) is sent.
   */
  public Request open(String target, String requester, long pageAddress, long pageCount, Permission permission) {
    IsolationPlan.Target t = plan.target(target).orElse(null);
    if (t == null) {
      return Request.refused(unknownTarget(target));
    }
    List<Integer> ids = t.arrivalIds().get(requester);
    if (ids == null || ids.isEmpty()) {
      return Request.refused(unknownRequester(t, requester));
    }
    if (permission == null) {
      return Request.refused("permission=null: give READ, WRITE or READ_WRITE");
    }
    IommuResult.OpenResult trial = new IommuTable(target, t.memory()).open(ids.get(0), pageAddress, pageCount, permission);
    if (trial instanceof IommuResult.Rejection no) {
      return Request.refused(no.reason());
    }
    List<AccessCheckChange> changes = new ArrayList<>();
    for (int id : ids) {
      changes.add(new OpenIommuPages(id, pageAddress, pageCount, permission));
    }
    return new Request(t, new IommuChanges(changes), null);
  }

  /** Closes the pages to {@code requester} under each ID it arrives with; all must be open. */
  public Request close(String target, String requester, long pageAddress, long pageCount) {
    IsolationPlan.Target t = plan.target(target).orElse(null);
    if (t == null) {
      return Request.refused(unknownTarget(target));
    }
    List<Integer> ids = t.arrivalIds().get(requester);
    if (ids == null || ids.isEmpty()) {
      return Request.refused(unknownRequester(t, requester));
    }
    if (!isolated.contains(target)) {
      return Request.refused("isolation is not enabled for " + target + ": no page of it is open to close ("
          + pageCount + " page(s) at " + Addresses.hex(pageAddress) + ")");
    }
    List<AccessCheckChange> changes = new ArrayList<>();
    for (int id : ids) {
      changes.add(new CloseIommuPages(id, pageAddress, pageCount));
    }
    return new Request(t, new IommuChanges(changes), null);
  }

  /** What a page event of the controller asks of one host's IOMMU. */
  public record ControllerChange(String host, Request request) {}

  /**
   * The change for a page the controller opened or closed ({@code IommuPageOpened}, {@code
   * IommuPageClosed}), whose requester is named by the ID it has in the management host's domain;
   * empty for another event, or when that requester is not another host of the plan at the target
   * (the target itself, a device): no IOMMU entry of the plan's to change.
   *
   * @param hostsByRequester the host each management-domain requester ID belongs to
   */
  public java.util.Optional<ControllerChange> forEvent(ControllerEvent event, Map<Integer, String> hostsByRequester) {
    if (event instanceof ControllerEvent.IommuPageOpened o) {
      String requester = hostsByRequester.get(o.requester());
      if (requester == null || requester.equals(o.host())) {
        return java.util.Optional.empty();
      }
      return java.util.Optional.of(new ControllerChange(o.host(),
          open(o.host(), requester, o.pageAddress(), 1, Permission.valueOf(o.permission().name()))));
    }
    if (event instanceof ControllerEvent.IommuPageClosed c) {
      String requester = hostsByRequester.get(c.requester());
      if (requester == null || requester.equals(c.host())) {
        return java.util.Optional.empty();
      }
      return java.util.Optional.of(new ControllerChange(c.host(), close(c.host(), requester, c.pageAddress(), 1)));
    }
    return java.util.Optional.empty();
  }

  private String unknownTarget(String host) {
    return "targetHost=" + host + " is not a host the management host can isolate (hosts: " + plan.hosts() + ")";
  }

  private static String unknownRequester(IsolationPlan.Target t, String requester) {
    return "requesterHost=" + requester + " has no route to " + t.host() + " (requesters: "
        + new TreeMap<>(t.arrivalIds()).keySet() + ")";
  }
}

package io.rackfabric.host.iommu;

import io.rackfabric.fabric.endpoint.AccessCheckChange;
import io.rackfabric.fabric.endpoint.InboundAccessCheck;
import java.util.ArrayList;
import java.util.List;

/**
 * Several IOMMU changes applied as one, all or nothing: the management host opens a page under
 * every requester ID a host arrives with (one per plane) and must not leave it open on one plane
 * only when the other is refused. The changes run in order on a copy of the endpoint's table, so
 * a refusal anywhere leaves the endpoint with the table it had.
 */
public record IommuChanges(List<AccessCheckChange> changes) implements AccessCheckChange {

  public IommuChanges {
    changes = changes == null ? null : List.copyOf(changes);
  }

  @Override
  public Result applyTo(String endpoint, InboundAccessCheck current) {
    if (changes == null || changes.isEmpty()) {
      return Result.refused(endpoint + ": changes=" + changes + " holds no change");
    }
    // The changes of this package change a table in place: work on a copy to stay all or nothing.
    InboundAccessCheck check = current instanceof IommuAccessCheck iommu
        ? iommu.copy() : current;
    List<String> details = new ArrayList<>(changes.size());
    for (AccessCheckChange change : changes) {
      Result r = change == null ? Result.refused(endpoint + ": a change of " + changes + " is null")
          : change.applyTo(endpoint, check);
      if (!r.accepted() || r.check() == null) {
        return Result.refused(r.detail());
      }
      check = r.check();
      details.add(r.detail());
    }
    return Result.applied(check, String.join("; ", details));
  }
}

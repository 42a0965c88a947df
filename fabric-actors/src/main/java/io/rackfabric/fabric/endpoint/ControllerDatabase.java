package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.management.DatabaseDelta;
import io.rackfabric.fabric.management.DatabaseShipper;
import io.rackfabric.fabric.management.FabricManagerDriver;
import io.rackfabric.fabric.management.TopologyDatabase;

/**
 * The fabric manager's topology database kept in the controller's event-sourced state (the Ladon
 * rack, where the management hosts are the candidates and the control plane's pair): the primary
 * hands every change of its database (a full copy first, then one delta per discovery round) to
 * the guest on its endpoint that keeps it ({@link MemoryEndpoint.KeepFabricDatabase}), which records
 * it as a controller event replicated to the backup; taking over, the secondary asks its own keeper
 * for the database its controller's state holds. Each change is a call: the endpoint's next events
 * wait until it is recorded, so the backup holds it before the model goes past it. Without a keeper
 * nothing happens. Not thread-safe: the endpoint actor's own.
 */
final class ControllerDatabase {

  private final GuestSide guests;
  private final DatabaseShipper shipper;
  /** The driver's count of database changes handed on so far. */
  private long handedChanges;
  private long handed;

  ControllerDatabase(GuestSide guests, int maxPayload) {
    this.guests = guests;
    this.shipper = new DatabaseShipper(maxPayload);
  }

  /**
   * Hands the keeper what changed in {@code driver}'s database since it last handed anything, at
   * model {@code at}; nothing when nothing changed or no guest keeps it.
   */
  void record(FabricManagerDriver driver, long at) {
    if (driver.databaseChanges() <= handedChanges) {
      return;
    }
    DatabaseDelta change = shipper.delta(driver.database());
    if (change == null) {
      handedChanges = driver.databaseChanges();
      return;
    }
    if (guests.callDatabaseKeeper(call -> new GuestCall.FabricDatabaseChanged(call, at, change))) {
      handedChanges = driver.databaseChanges();
      handed++;
    } else {
      shipper.resync(); // none keeps it: a keeper that comes later gets it whole
    }
  }

  /** Asks the keeper for the database at model {@code at}; false when no guest keeps it. */
  boolean ask(long at) {
    return guests.callDatabaseKeeper(call -> new GuestCall.FabricDatabaseWanted(call, at));
  }

  /** The database a keeper's full copy gives; null for none or an empty one. */
  static TopologyDatabase database(DatabaseDelta fullCopy) {
    if (fullCopy == null || fullCopy.devices().isEmpty()) {
      return null;
    }
    return fullCopy.toDatabase();
  }

  /** Changes handed to the keeper. */
  long handed() {
    return handed;
  }
}

package io.rackfabric.persistence.kryo;

import io.rackfabric.fabric.wire.WireRegistrations;
import io.rackfabric.fabric.wire.WireRegistrations.Entry;
import io.rackfabric.persistence.controller.BarRecord;
import io.rackfabric.persistence.controller.ClientRequestRecord;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.ControllerSnapshot;
import io.rackfabric.persistence.controller.ControllerState;
import io.rackfabric.persistence.controller.DeviceKind;
import io.rackfabric.persistence.controller.DeviceRecord;
import io.rackfabric.persistence.controller.DmaMapping;
import io.rackfabric.persistence.controller.HostRecord;
import io.rackfabric.persistence.controller.IommuEntry;
import io.rackfabric.persistence.controller.LendableKind;
import io.rackfabric.persistence.controller.LoanRecord;
import io.rackfabric.persistence.controller.MsiPath;
import io.rackfabric.persistence.controller.NicDriverRecord;
import io.rackfabric.persistence.controller.OfferRecord;
import io.rackfabric.persistence.controller.PagePermission;
import io.rackfabric.persistence.controller.PfDriverState;
import io.rackfabric.persistence.controller.RequesterIdDirection;
import io.rackfabric.persistence.controller.RequesterIdRecord;
import io.rackfabric.persistence.controller.VfAssignment;
import io.rackfabric.persistence.controller.WindowRecord;
import io.rackfabric.persistence.replication.ControllerReplica;
import java.util.List;

/**
 * persistence's id table (range 1000..1999). The ids of journaled classes are in every stored
 * manifest and record: never renumber, never reuse a retired id.
 */
public final class PersistenceWireRegistrations implements WireRegistrations {

  private static final List<Entry> ENTRIES = List.of(
      // 1000..1029 controller events (journaled)
      Entry.of(1000, ControllerEvent.HostAdded.class),
      Entry.of(1001, ControllerEvent.HostRemoved.class),
      Entry.of(1002, ControllerEvent.DeviceAdded.class),
      Entry.of(1003, ControllerEvent.DeviceRemoved.class),
      Entry.of(1004, ControllerEvent.EnumerationCompleted.class),
      Entry.of(1005, ControllerEvent.PfDriverInitialized.class),
      Entry.of(1006, ControllerEvent.VfAssigned.class),
      Entry.of(1007, ControllerEvent.VfFreed.class),
      Entry.of(1008, ControllerEvent.IommuPageOpened.class),
      Entry.of(1009, ControllerEvent.IommuPageClosed.class),
      Entry.of(1010, ControllerEvent.WindowReprogrammed.class),
      Entry.of(1011, ControllerEvent.RequesterIdProgrammed.class),
      Entry.of(1012, ControllerEvent.TemplateImageTaken.class),
      Entry.of(1013, ControllerEvent.RequestApplied.class),
      Entry.of(1014, ControllerEvent.DeviceOffered.class),
      Entry.of(1015, ControllerEvent.OfferWithdrawn.class),
      Entry.of(1016, ControllerEvent.DeviceLent.class),
      Entry.of(1017, ControllerEvent.DeviceReturned.class),
      Entry.of(1018, ControllerEvent.DmaBufferMapped.class),
      Entry.of(1019, ControllerEvent.DmaBufferUnmapped.class),
      Entry.of(1020, ControllerEvent.LoanWindowMoved.class),
      Entry.of(1021, ControllerEvent.SteppedDown.class),
      Entry.of(1022, ControllerEvent.MsiPathOpened.class),
      Entry.of(1023, ControllerEvent.MsiPathClosed.class),
      Entry.of(1024, ControllerEvent.FabricDatabaseRecorded.class),

      // 1030..1049 controller values (inside events and the snapshot)
      Entry.of(1030, DeviceKind.class),
      Entry.of(1031, PagePermission.class),
      Entry.of(1032, PfDriverState.class),
      Entry.of(1033, RequesterIdDirection.class),
      Entry.of(1034, HostRecord.class),
      Entry.of(1035, BarRecord.class),
      Entry.of(1036, DeviceRecord.class),
      Entry.of(1037, NicDriverRecord.class),
      Entry.of(1038, VfAssignment.class),
      Entry.of(1039, IommuEntry.class),
      Entry.of(1040, WindowRecord.class),
      Entry.of(1041, RequesterIdRecord.class),
      Entry.of(1042, ControllerSnapshot.class),
      Entry.of(1043, ControllerState.class, s -> new ControllerStateKryo()),
      Entry.of(1044, ClientRequestRecord.class),
      Entry.of(1045, LendableKind.class),
      Entry.of(1046, OfferRecord.class),
      Entry.of(1047, LoanRecord.class),
      Entry.of(1048, DmaMapping.class),
      Entry.of(1049, MsiPath.class),

      // 1050..1079 controller protocol
      Entry.of(1050, Controller.AddHost.class),
      Entry.of(1051, Controller.RemoveHost.class),
      Entry.of(1052, Controller.AddDevice.class),
      Entry.of(1053, Controller.RemoveDevice.class),
      Entry.of(1054, Controller.CompleteEnumeration.class),
      Entry.of(1055, Controller.InitPfDriver.class),
      Entry.of(1056, Controller.AssignVf.class),
      Entry.of(1057, Controller.FreeVf.class),
      Entry.of(1058, Controller.OpenIommuPage.class),
      Entry.of(1059, Controller.CloseIommuPage.class),
      Entry.of(1060, Controller.ReprogramWindow.class),
      Entry.of(1061, Controller.ProgramRequesterId.class),
      Entry.of(1062, Controller.TakeTemplateImage.class),
      Entry.of(1063, Controller.GetState.class),
      Entry.of(1064, Controller.CurrentState.class),
      Entry.of(1065, Controller.OperationResult.class),
      Entry.of(1066, Controller.Status.class),
      Entry.of(1067, Controller.Request.class),
      Entry.of(1068, Controller.OfferDevice.class),
      Entry.of(1069, Controller.WithdrawOffer.class),
      Entry.of(1070, Controller.BorrowDevice.class),
      Entry.of(1071, Controller.ReturnDevice.class),
      Entry.of(1072, Controller.MapDmaBuffer.class),
      Entry.of(1073, Controller.UnmapDmaBuffer.class),
      Entry.of(1074, Controller.MoveLoanWindow.class),
      Entry.of(1075, Controller.StepDown.class),
      Entry.of(1076, Controller.RecordFabricDatabase.class),

      // 1080..1089 replica protocol
      Entry.of(1080, ControllerReplica.ReplicateEvents.class),
      Entry.of(1081, ControllerReplica.ReplicationAck.class),
      Entry.of(1082, ControllerReplica.GetState.class)

      // next free: 1090
      );

  @Override
  public List<Entry> registrations() {
    return ENTRIES;
  }
}

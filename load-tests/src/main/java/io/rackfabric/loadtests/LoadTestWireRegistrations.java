package io.rackfabric.loadtests;

import io.rackfabric.fabric.wire.WireRegistrations;
import io.rackfabric.loadtests.bench.BarePayload;
import io.rackfabric.loadtests.bench.BareSink;
import io.rackfabric.loadtests.bench.BareSource;
import java.util.List;

/** load-tests' classes on the wire (ids 4000+; never change one once given). */
public final class LoadTestWireRegistrations implements WireRegistrations {

  @Override
  public List<Entry> registrations() {
    return List.of(
        Entry.of(4000, BarePayload.class),
        Entry.of(4001, BareSink.Attach.class),
        Entry.of(4002, BareSource.Acked.class));
  }
}

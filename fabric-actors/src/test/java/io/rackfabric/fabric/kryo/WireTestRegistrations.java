package io.rackfabric.fabric.kryo;

import io.rackfabric.fabric.wire.WireRegistrations;
import java.util.List;

/**
 * Test-scope contributor, found through src/test/resources/META-INF/services the way another
 * module's would be. Public only because ServiceLoader instantiates it.
 */
public final class WireTestRegistrations implements WireRegistrations {

  @Override
  public List<Entry> registrations() {
    return List.of(
        Entry.of(9000, WireTestMessages.WithRef.class),
        Entry.of(9001, WireTestMessages.Envelope.class),
        Entry.of(9002, WireTestMessages.Checked.class),
        Entry.of(9003, io.rackfabric.fabric.endpoint.TestAccessChanges.AllowOnly.class));
  }
}

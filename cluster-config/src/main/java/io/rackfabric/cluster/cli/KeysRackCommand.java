package io.rackfabric.cluster.cli;

import io.rackfabric.cluster.keys.RackKeys;
import io.rackfabric.cluster.node.TlsSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rack keys --out DIR [--force]}: makes a rack's TLS keys for {@code --transport tls-tcp}
 * (see {@link RackKeys}); every node of the rack is given a copy of the folder.
 */
@Command(name = "keys", showDefaultValues = true,
    description = "make a rack's TLS keys for --transport tls-tcp (--out DIR [--force])")
public final class KeysRackCommand extends PicocliRackCommand {

  // Checked in call() rather than required = true, to keep the message "--out is required".
  @Option(names = "--out", paramLabel = "DIR", description = "the folder to make (required; owner-only)")
  String dir;

  @Option(names = "--force", description = "replace the keys already in DIR")
  boolean force;

  @Override
  public Integer call() throws UsageException {
    if (dir == null) {
      throw new UsageException("--out is required");
    }
    RackKeys.Made made;
    try {
      made = RackKeys.create(TlsSettings.path("--out", dir), force);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage()); // it names the folder, as given or made absolute
    }
    out.println("keys for one rack in " + made.dir() + " (owner-only):");
    out.printf("  %-15s the nodes' key and certificate, signed by %s%n", made.keyStore().getFileName(),
        made.ca().getSubjectX500Principal().getName());
    out.printf("  %-15s the rack's CA, the only issuer a node trusts%n", made.trustStore().getFileName());
    out.printf("  %-15s the stores' password%n", made.passwordFile().getFileName());
    out.println("certificates valid until " + made.node().getNotAfter().toInstant() + "; copy the folder to every"
        + " machine of the rack and run each node with --transport tls-tcp --tls-dir " + made.dir());
    return 0;
  }
}

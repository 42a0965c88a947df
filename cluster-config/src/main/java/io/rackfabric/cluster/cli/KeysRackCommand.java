package io.rackfabric.cluster.cli;

import io.rackfabric.cluster.keys.RackKeys;
import io.rackfabric.cluster.node.TlsSettings;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;

/**
 * {@code rack keys --out DIR [--force]}: makes a rack's TLS keys for {@code --transport tls-tcp}
 * (see {@link RackKeys}); every node of the rack is given a copy of the folder.
 */
public final class KeysRackCommand implements RackCommand {

  @Override
  public String name() {
    return "keys";
  }

  @Override
  public String summary() {
    return "make a rack's TLS keys for --transport tls-tcp (--out DIR [--force])";
  }

  @Override
  public int run(List<String> argList, PrintStream out, PrintStream err) throws Exception {
    Args args = Args.parse(argList, Set.of("out"), Set.of("force"));
    if (!args.positional().isEmpty()) {
      throw new UsageException("unexpected argument '" + args.positional().get(0) + "' (usage: rack keys --out DIR"
          + " [--force])");
    }
    String dir = args.require("out");
    RackKeys.Made made;
    try {
      made = RackKeys.create(TlsSettings.path("--out", dir), args.has("force"));
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

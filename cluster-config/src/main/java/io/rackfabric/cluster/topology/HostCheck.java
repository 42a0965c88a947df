package io.rackfabric.cluster.topology;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Which nodes' host names a topology load looks up. Loading stays offline unless asked: a file may
 * well be written on a machine that cannot resolve the rack's names. {@code rack topology check}
 * asks for every node, {@code rack node} for the hosts it binds and joins, since an unresolvable
 * name is what would stop a node later with a Java exception instead of the file's line.
 *
 * @param all every node's host
 * @param seed the first node's (the seed's) host
 * @param node one node's host by name, or null
 */
public record HostCheck(boolean all, boolean seed, String node) {

  /** No look-ups: parsing only. */
  public static final HostCheck NONE = new HostCheck(false, false, null);

  /** Every node's host. */
  public static final HostCheck ALL = new HostCheck(true, false, null);

  boolean covers(int index, String name) {
    return all || seed && index == 0 || name.equals(node);
  }

  /** Whether {@code host} names an address here (a literal address always does). */
  public static boolean resolves(String host) {
    try {
      InetAddress.getByName(host);
      return true;
    } catch (UnknownHostException | SecurityException e) {
      return false;
    }
  }
}

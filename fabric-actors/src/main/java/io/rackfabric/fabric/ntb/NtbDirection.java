package io.rackfabric.fabric.ntb;

/**
 * Which way a request crosses an NTB, and so which of its two requester-ID tables gives it a
 * proxy ID: requests from the switch (link) domain into the slave (virtual) domain are proxied on
 * the virtual side, requests from the slave domain into the switch domain on the link side.
 */
public enum NtbDirection {
  /** From the switch's domain into the slave domain: proxy IDs of the virtual-side endpoint. */
  TO_VIRTUAL,
  /** From the slave domain into the switch's domain: proxy IDs of the link-side endpoint. */
  TO_LINK
}

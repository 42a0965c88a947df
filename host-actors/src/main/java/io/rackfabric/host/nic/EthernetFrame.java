package io.rackfabric.host.nic;

import io.rackfabric.fabric.wire.WireMessage;

/**
 * A frame on the 10 GbE wire, as the NIC's link model scheduled it.
 *
 * @param nic the sending NIC
 * @param sourceVf the VF whose queue sent it
 * @param data the frame from destination MAC to the end of the payload (no padding, no FCS)
 * @param wireBytes bytes it occupied the wire for: preamble, padding, FCS and gap included
 * @param sentAt model time its first bit went on the wire
 * @param arrivesAt model time its last bit reaches the receiver
 */
public record EthernetFrame(String nic, int sourceVf, byte[] data, int wireBytes, long sentAt, long arrivesAt)
    implements WireMessage {}

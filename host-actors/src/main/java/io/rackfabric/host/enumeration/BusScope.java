package io.rackfabric.host.enumeration;

/** Bus numbers still free where enumeration is: the whole domain, or a slot's reserved range. */
final class BusScope {

  int next;
  final int last;

  BusScope(int next, int last) {
    this.next = next;
    this.last = last;
  }
}

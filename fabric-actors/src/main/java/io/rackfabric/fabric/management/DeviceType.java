package io.rackfabric.fabric.management;

/** What the baseline capability says a device is (AS-FM section 3.1: "endpoint or switch"). */
public enum DeviceType {
  ENDPOINT,
  SWITCH;

  /** The 4-bit code in the general information. */
  int code() {
    return ordinal();
  }

  static DeviceType ofCode(int code) {
    return Codes.decode(values(), code, "device type");
  }
}

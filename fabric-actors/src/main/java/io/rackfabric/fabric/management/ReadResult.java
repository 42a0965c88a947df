package io.rackfabric.fabric.management;

import java.util.Arrays;

/**
 * What a read of a configuration space gives: the registers read, or why there are none (a PI-4
 * read completion with data, or with error).
 */
public record ReadResult(int[] data, String error) {

  public ReadResult {
    if ((data == null) == (error == null)) {
      throw new IllegalArgumentException("a read result has data or an error, not both or neither");
    }
    data = data == null ? null : data.clone();
  }

  static ReadResult ok(int[] data) {
    return new ReadResult(data, null);
  }

  static ReadResult failed(String error) {
    return new ReadResult(null, error);
  }

  public boolean ok() {
    return error == null;
  }

  @Override
  public int[] data() {
    return data == null ? null : data.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ReadResult r && Arrays.equals(data, r.data) && java.util.Objects.equals(error, r.error);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(data) + java.util.Objects.hashCode(error);
  }

  @Override
  public String toString() {
    return ok() ? "data" + Arrays.toString(data) : "error: " + error;
  }
}

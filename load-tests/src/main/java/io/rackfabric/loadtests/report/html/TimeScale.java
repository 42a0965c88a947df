package io.rackfabric.loadtests.report.html;

/**
 * The unit a time axis is drawn in: the largest of ns, us, ms and s in which {@code span} is at
 * least 1, so tick labels stay short.
 */
public record TimeScale(String unit, double nanos) {

  public static TimeScale forSpan(double spanNs) {
    double span = Math.abs(spanNs);
    if (span >= 1e9) {
      return new TimeScale("s", 1e9);
    }
    if (span >= 1e6) {
      return new TimeScale("ms", 1e6);
    }
    if (span >= 1e3) {
      return new TimeScale("us", 1e3);
    }
    return new TimeScale("ns", 1);
  }

  public double of(double ns) {
    return ns / nanos;
  }

  public double[] of(long[] ns, long origin) {
    double[] out = new double[ns.length];
    for (int i = 0; i < ns.length; i++) {
      out[i] = (ns[i] - origin) / nanos;
    }
    return out;
  }
}

package io.rackfabric.loadtests.report.html;

import java.util.ArrayList;
import java.util.List;

/**
 * A linear axis over the data's range widened to round ticks (steps of 1, 2 or 5 times a power of
 * ten), so the first and last tick are the axis' ends.
 *
 * @param lo the axis' lower end (a tick)
 * @param hi the axis' upper end (a tick), always above {@code lo}
 * @param step the distance between ticks
 * @param decimals decimals a tick label needs to tell neighbours apart
 */
record Axis(double lo, double hi, double step, int decimals) {

  /**
   * An axis covering {@code [min, max]} with about {@code ticks} intervals. An empty range (one
   * value, or none: both NaN) is widened around the value (or to [0, 1]) so that nothing divides
   * by zero.
   */
  static Axis covering(double min, double max, int ticks) {
    if (Double.isNaN(min) || Double.isNaN(max) || Double.isInfinite(min) || Double.isInfinite(max)) {
      min = 0;
      max = 1;
    }
    if (min > max) {
      double t = min;
      min = max;
      max = t;
    }
    if (max == min && min == 0) {
      max = 1; // all zeros (no loss, no gap): a zero-based axis, not one around 0
    } else if (max == min) {
      double pad = Math.abs(min) * 0.1;
      min -= pad; // a positive value keeps a positive axis: 0.9 of it
      max += pad;
    }
    double step = niceStep((max - min) / Math.max(1, ticks));
    double lo = Math.floor(min / step) * step;
    double hi = Math.ceil(max / step) * step;
    if (hi <= lo) {
      hi = lo + step;
    }
    int decimals = (int) Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
    return new Axis(lo, hi, step, decimals);
  }

  /** The smallest of 1, 2, 5 x 10^k not below {@code raw}. */
  static double niceStep(double raw) {
    if (!(raw > 0)) {
      return 1;
    }
    double power = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * power >= raw * (1 - 1e-9)) {
        return m * power;
      }
    }
    return 10 * power;
  }

  /** Every tick from {@code lo} to {@code hi}. */
  List<Double> ticks() {
    List<Double> out = new ArrayList<>();
    long n = Math.round((hi - lo) / step);
    for (long i = 0; i <= n; i++) {
      out.add(lo + i * step);
    }
    return out;
  }

  /** Where {@code v} falls between {@code from} (at lo) and {@code to} (at hi), in pixels. */
  double map(double v, double from, double to) {
    return from + (v - lo) / (hi - lo) * (to - from);
  }

  String label(double tick) {
    return Markup.number(tick, decimals);
  }
}

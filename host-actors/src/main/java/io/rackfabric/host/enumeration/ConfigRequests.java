package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.tlp.Bdf;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * The enumerator's conversation with configuration space, one request at a time as enumeration
 * software has it: every step issues at most one request, and what follows an answer is pushed in
 * front of the agenda, so the walk goes depth first. Also keeps what went wrong and what the
 * requests cost, for the result.
 */
final class ConfigRequests {

  private final Deque<Runnable> agenda = new ArrayDeque<>();
  private final List<String> problems = new ArrayList<>();
  private ConfigOp pending;
  private Consumer<ConfigAnswer> onAnswer;
  private int requests;
  private long modelNs;

  /** Runs the agenda until a step issues a request; that request, or null when the agenda is empty. */
  ConfigOp next() {
    while (pending == null && !agenda.isEmpty()) {
      agenda.pollFirst().run();
    }
    return pending;
  }

  /** The answer to the request {@link #next()} returned last. */
  void accept(ConfigAnswer answer) {
    if (pending == null) {
      throw new IllegalStateException("no configuration request is outstanding");
    }
    requests++;
    modelNs += answer.latencyNs();
    Consumer<ConfigAnswer> k = onAnswer;
    pending = null;
    onAnswer = null;
    k.accept(answer);
  }

  int requests() {
    return requests;
  }

  long modelNs() {
    return modelNs;
  }

  /** The problems so far; the live list, which the result copies. */
  List<String> problems() {
    return problems;
  }

  /** A problem of the enumeration as a whole (no function to name). */
  void problem(String what) {
    problems.add(what);
  }

  /** Runs {@code steps} next, in order, ahead of what is queued: depth first. */
  void then(Runnable... steps) {
    for (int i = steps.length - 1; i >= 0; i--) {
      agenda.addFirst(steps[i]);
    }
  }

  void then(List<Runnable> steps) {
    then(steps.toArray(Runnable[]::new));
  }

  /** Issues one request; {@code k} runs with its answer. A step issues at most one. */
  void issue(ConfigOp op, Consumer<ConfigAnswer> k) {
    if (pending != null) {
      throw new IllegalStateException("two requests in one step: " + pending + " and " + op);
    }
    pending = op;
    onAnswer = k;
  }

  static ConfigOp op(int bdf, int register, Integer value) {
    return new ConfigOp(bdf, Bdf.bus(bdf) == 0 ? 0 : 1, register, value);
  }

  /** A step reading a register; a failed read is reported and its value passed on all the same. */
  Runnable read(ProbedFunction f, int register, IntConsumer k) {
    return () -> issue(op(f.bdf(), register, null), a -> {
      if (!a.successful()) {
        problem(f, "read of register " + register + " got " + status(a));
      }
      k.accept(a.value());
    });
  }

  Runnable write(ProbedFunction f, int register, int value) {
    return () -> issue(op(f.bdf(), register, value), a -> {
      if (!a.successful()) {
        problem(f, "write of 0x" + Integer.toHexString(value) + " to register " + register + " got " + status(a));
      }
    });
  }

  static String status(ConfigAnswer a) {
    return a.status() == null ? "no completion" : a.status().name();
  }

  /** A problem at a function, named by bdf and location (the root bus by neither). */
  void problem(ProbedFunction f, String what) {
    problems.add(f == null || f.parent == null ? what : Bdf.format(f.bdf()) + " [" + f.location + "]: " + what);
  }
}

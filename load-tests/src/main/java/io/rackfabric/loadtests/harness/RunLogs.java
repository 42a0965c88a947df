package io.rackfabric.loadtests.harness;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.filter.ThresholdFilter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.FileAppender;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

/**
 * Keeps a run's log lines off the terminal: while a run lasts, every line logged in this JVM
 * (Akka's, Aeron's through Akka, the actors' own; INFO and up) goes to {@code RUN/logs/driver.log},
 * and only ERROR lines still reach the terminal (stderr), so that what {@code rack run}, {@code rack
 * demo} and {@code rack chaos} print is the emulator's own progress and results. Node JVMs of a
 * multi-JVM run write beside it ({@code RUN/logs/NODE.log}, {@link NodeProcesses}).
 *
 * <p>Logback is reconfigured in place and restored when the last open run closes, so that a test
 * that runs several commands in one JVM gets its own file each time and its usual console after.
 * Runs open at the same time share every line.
 */
public final class RunLogs implements AutoCloseable {

  public static final String DIR = "logs";
  public static final String DRIVER = "driver.log";
  private static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{36} - %msg%n";

  private static final Object LOCK = new Object();
  /** Runs open in this JVM; the console is restored when the last one closes. */
  private static int open;
  private static final List<Appender<ILoggingEvent>> consoles = new ArrayList<>();
  private static Level rootLevel;
  private static ConsoleAppender<ILoggingEvent> errors;

  private final Path file;
  private final FileAppender<ILoggingEvent> appender;

  private RunLogs(Path file, FileAppender<ILoggingEvent> appender) {
    this.file = file;
    this.appender = appender;
  }

  /**
   * Sends this JVM's log lines to {@code runDir/logs/driver.log} until {@link #close}. Without
   * logback (another SLF4J binding) nothing changes.
   */
  public static RunLogs open(Path runDir) throws IOException {
    Path file = Files.createDirectories(runDir.resolve(DIR)).resolve(DRIVER);
    // Initialising SLF4J here, on one thread, before any actor system starts: initialised from
    // several threads at once it prints "SLF4J: ... replayed" notices to the terminal.
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return new RunLogs(file, null);
    }
    FileAppender<ILoggingEvent> appender = new FileAppender<>();
    appender.setContext(context);
    appender.setName("run-" + file);
    appender.setFile(file.toString());
    appender.setEncoder(encoder(context));
    appender.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    synchronized (LOCK) {
      if (open++ == 0) {
        rootLevel = root.getLevel();
        for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
          Appender<ILoggingEvent> a = it.next();
          if (a instanceof ConsoleAppender) {
            consoles.add(a);
          }
        }
        consoles.forEach(root::detachAppender);
        errors = errorsToTerminal(context);
        root.addAppender(errors);
        root.setLevel(Level.INFO);
      }
      root.addAppender(appender);
    }
    return new RunLogs(file, appender);
  }

  /** The run's own log file. */
  public Path file() {
    return file;
  }

  /**
   * "logs: RUN/logs/driver.log", with the node JVMs' files beside it when there are any: what a
   * command prints at the end of a run.
   */
  public String summary() {
    List<String> others;
    try (Stream<Path> files = Files.list(file.getParent())) {
      others = files.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".log") && !n.equals(DRIVER)).sorted().toList();
    } catch (IOException e) {
      others = List.of(); // the folder is named anyway; a reader lists it
    }
    return "logs: " + file + (others.isEmpty() ? "" : " (node JVMs: " + String.join(", ", others) + " beside it)");
  }

  @Override
  public void close() {
    if (appender == null) {
      return;
    }
    LoggerContext context = (LoggerContext) appender.getContext();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    synchronized (LOCK) {
      root.detachAppender(appender);
      if (--open == 0) {
        root.detachAppender(errors);
        errors.stop();
        consoles.forEach(root::addAppender);
        consoles.clear();
        root.setLevel(rootLevel);
      }
    }
    appender.stop();
  }

  private static ConsoleAppender<ILoggingEvent> errorsToTerminal(LoggerContext context) {
    ThresholdFilter onlyErrors = new ThresholdFilter();
    onlyErrors.setLevel(Level.ERROR.levelStr);
    onlyErrors.start();
    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    console.setName("run-errors");
    console.setTarget("System.err");
    console.setEncoder(encoder(context));
    console.addFilter(onlyErrors);
    console.start();
    return console;
  }

  private static PatternLayoutEncoder encoder(LoggerContext context) {
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();
    return encoder;
  }
}

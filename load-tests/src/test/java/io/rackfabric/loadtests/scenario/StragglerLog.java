package io.rackfabric.loadtests.scenario;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.rackfabric.fabric.time.Synchronizer;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * The kernel's straggler warnings of a one-JVM run, kept while open, so that a test asserting no
 * straggler names them when it fails (which member, which event, how far behind) instead of a count.
 */
final class StragglerLog implements AutoCloseable {

  private final Logger logger = (Logger) LoggerFactory.getLogger(Synchronizer.class);
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  StragglerLog() {
    appender.start();
    logger.addAppender(appender);
  }

  /** The straggler lines so far, the first few, for an assertion's message. */
  String lines() {
    List<String> all = appender.list.stream().map(ILoggingEvent::getFormattedMessage)
        .filter(m -> m.contains("straggler")).toList();
    return all.isEmpty() ? "none logged" : String.join("; ", all.subList(0, Math.min(10, all.size())))
        + (all.size() > 10 ? " and " + (all.size() - 10) + " more" : "");
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    appender.stop();
  }
}

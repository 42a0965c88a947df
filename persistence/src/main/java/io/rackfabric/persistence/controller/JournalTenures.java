package io.rackfabric.persistence.controller;

import akka.actor.typed.ActorSystem;
import akka.persistence.jdbc.query.javadsl.JdbcReadJournal;
import akka.persistence.query.PersistenceQuery;
import akka.stream.javadsl.Sink;
import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A management host's last tenure, found in its node's journal (not guessed): the persistence ids
 * that hold events, those of the host's base id ({@link Tenure#base}), the highest tenure number.
 * A host whose JVM died and was started again on its old data folder rejoins from that journal.
 */
public final class JournalTenures {

  private JournalTenures() {}

  /** The highest tenure of {@code base} among {@code persistenceIds}, or empty when none is the host's. */
  public static Optional<Tenure> last(Collection<String> persistenceIds, String base) {
    return persistenceIds.stream().map(Tenure::of).filter(t -> t.base().equals(base))
        .max(Comparator.comparingInt(Tenure::number));
  }

  /** As above, over the persistence ids of {@code system}'s JDBC journal that hold events. */
  public static CompletionStage<Optional<Tenure>> last(ActorSystem<?> system, String base) {
    JdbcReadJournal journal = PersistenceQuery.get(system)
        .getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
    return journal.currentPersistenceIds().runWith(Sink.seq(), system).thenApply(ids -> last(ids, base));
  }
}

package io.rackfabric.persistence.replay;

import java.nio.file.Path;

/**
 * One persistence id of a journal file.
 *
 * @param events events not marked deleted
 * @param highestSeqNr highest sequence number written, 0 when none
 * @param snapshotSeqNr sequence number of the latest snapshot (the template image), -1 when none
 */
public record IdSummary(Path journal, String persistenceId, long events, long highestSeqNr,
    long snapshotSeqNr) {

  public boolean hasSnapshot() {
    return snapshotSeqNr >= 0;
  }
}

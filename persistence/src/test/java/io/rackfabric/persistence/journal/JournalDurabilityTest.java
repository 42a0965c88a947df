package io.rackfabric.persistence.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a node committed to its journal survives its JVM being killed: the emulator kills node JVMs
 * on purpose, and a killed controller's journal must hold every event it acknowledged (H2's
 * default write delay lost the last half second of commits).
 */
class JournalDurabilityTest {

  static final int ROWS = 20;

  @TempDir
  Path dir;

  @Test
  void shouldKeepEveryCommitWhenTheJvmIsHaltedRightAfterIt() throws Exception {
    String url = JournalConfig.h2(dir, "node-k", 1)
        .getString("akka-persistence-jdbc.shared-databases.slick.db.url");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), CommitThenHalt.class.getName(), url)
        .inheritIO().start();
    try {
      assertTrue(p.waitFor(2, TimeUnit.MINUTES), "the writing JVM did not end");
      assertEquals(CommitThenHalt.HALTED, p.exitValue(), "the writing JVM halts after its commits");
    } finally {
      p.destroyForcibly();
    }
    try (Connection c = DriverManager.getConnection(url);
        ResultSet r = c.createStatement().executeQuery("select count(*) from committed")) {
      r.next();
      assertEquals(ROWS, r.getInt(1), "rows committed before the halt");
    }
  }

  /** Commits {@link #ROWS} rows one by one, then halts the JVM as a kill would: no shutdown hook. */
  static final class CommitThenHalt {
    static final int HALTED = 9;

    public static void main(String[] args) throws SQLException {
      try (Connection c = DriverManager.getConnection(args[0]); Statement s = c.createStatement()) {
        s.execute("create table committed(x int)");
        for (int i = 0; i < ROWS; i++) {
          s.execute("insert into committed values(" + i + ")");
        }
        Runtime.getRuntime().halt(HALTED);
      }
    }
  }
}

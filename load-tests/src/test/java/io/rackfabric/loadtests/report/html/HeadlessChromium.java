package io.rackfabric.loadtests.report.html;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Renders a local page in headless Chromium and returns the DOM it built, with every network
 * feature that could reach out switched off. The browser (and whatever it started) is stopped
 * also when it hangs or the caller fails.
 */
final class HeadlessChromium {

  private static final long TIMEOUT_S = 90;

  private HeadlessChromium() {}

  /** The browser: $CHROMIUM, else /usr/bin/chromium; fails saying how to install it. */
  static Path binary() {
    String env = System.getenv("CHROMIUM");
    Path p = Path.of(env != null && !env.isBlank() ? env : "/usr/bin/chromium");
    if (!Files.isExecutable(p)) {
      throw new AssertionError("no Chromium at " + p + ": .ci/run installs it (apt-get install -y chromium), or set"
          + " CHROMIUM to a chromium binary; skip browser tests with -DexcludedGroups=browser");
    }
    return p;
  }

  /** The rendered DOM of {@code page}; {@code extra} flags go before the page (e.g. --screenshot=F). */
  static String dumpDom(Path page, Path scratch, String... extra) throws Exception {
    Path profile = Files.createDirectories(scratch.resolve("chromium-profile"));
    Path out = scratch.resolve("dom.html");
    Path err = scratch.resolve("chromium.err");
    List<String> cmd = new ArrayList<>(List.of(binary().toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--dump-dom"));
    cmd.addAll(List.of(extra));
    cmd.add(page.toUri().toString());
    Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    try {
      if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
        throw new AssertionError("chromium did not finish within " + TIMEOUT_S + " s rendering " + page + "; stderr: "
            + tail(err));
      }
      String dom = Files.readString(out, StandardCharsets.UTF_8);
      if (p.exitValue() != 0 || dom.isBlank()) {
        throw new AssertionError("chromium exited " + p.exitValue() + " with " + dom.length()
            + " characters of DOM; stderr: " + tail(err));
      }
      return dom;
    } finally {
      stop(p);
    }
  }

  private static void stop(Process p) throws InterruptedException {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    if (p.isAlive()) {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static String tail(Path err) throws IOException {
    if (!Files.exists(err)) {
      return "";
    }
    String s = Files.readString(err, StandardCharsets.UTF_8);
    return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
  }
}

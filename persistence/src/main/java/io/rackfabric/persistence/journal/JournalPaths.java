package io.rackfabric.persistence.journal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;

/**
 * Where a node's journal lives and the H2 URL that opens it: {@code jdbc:h2:file:<folder>/<name>}
 * followed by settings. H2 reads everything after the first {@code ';'} of a URL as settings,
 * {@code INIT} (SQL run on connect) among them, and no quoting keeps a {@code ';'} in the path. The
 * folder and the name come from users (a scenario's name or file name, {@code --data-dir}, the
 * files of a folder given to {@code rack replay}), so every URL is built here, from a checked path:
 *
 * <ul>
 *   <li>the folder is made absolute and normalized, and none of its elements may hold {@code ';'},
 *       {@code '='} or a control character;
 *   <li>the name must be letters, digits, {@code '.'}, {@code '_'} and {@code '-'}, not starting
 *       with {@code '.'} or {@code '-'}: no path separator and no {@code ".."}, so the journal
 *       stays directly inside its folder.
 * </ul>
 *
 * Anything else is an {@link IllegalArgumentException} naming the value and why.
 */
public final class JournalPaths {

  /** What H2 appends to the journal's path for its file. */
  public static final String SUFFIX = ".mv.db";

  private static final String URL_PREFIX = "jdbc:h2:file:";
  /** Values in messages are cut to this many characters: a crafted name can be long. */
  private static final int SHOWN = 80;
  private static final Set<PosixFilePermission> OWNER_FOLDER =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> OWNER_FILE =
      PosixFilePermissions.fromString("rw-------");

  private JournalPaths() {}

  /** {@code folder} absolute and normalized, as a URL holds it; refused if H2 would misread it. */
  public static Path folder(Path folder) {
    if (folder == null) {
      throw new IllegalArgumentException("journal folder is missing");
    }
    // Checked after normalizing: that is the path H2 sees ("a;b/.." holds no ';' any more).
    Path dir = folder.toAbsolutePath().normalize();
    for (Path element : dir) {
      String reason = folderReason(element.toString());
      if (reason != null) {
        throw new IllegalArgumentException("journal folder " + shown(dir.toString()) + ": element "
            + shown(element.toString()) + " holds " + reason);
      }
    }
    return dir;
  }

  /** The journal's path without {@link #SUFFIX}: {@code name} directly inside {@link #folder}. */
  public static Path journal(Path folder, String name) {
    checkName(name);
    return folder(folder).resolve(name);
  }

  /**
   * The URL that opens journal {@code name} in {@code folder}, followed by H2 settings such as
   * {@code DATABASE_TO_UPPER=false} (constants of the caller's, never user input).
   */
  public static String url(Path folder, String name, String... settings) {
    StringBuilder url = new StringBuilder(URL_PREFIX).append(journal(folder, name));
    for (String s : settings) {
      url.append(';').append(s);
    }
    return url.toString();
  }

  /** The URL that opens journal file {@code <folder>/<name>.mv.db}, checked as in {@link #url}. */
  public static String urlOfFile(Path file, String... settings) {
    Path f = file.toAbsolutePath().normalize();
    String fileName = f.getFileName() == null ? "" : f.getFileName().toString();
    if (!fileName.endsWith(SUFFIX)) {
      throw new IllegalArgumentException("journal file " + shown(f.toString()) + " does not end in "
          + SUFFIX);
    }
    return url(f.getParent(), fileName.substring(0, fileName.length() - SUFFIX.length()), settings);
  }

  /** The journal file a URL built by {@link #url} opens; empty for any other URL. */
  public static Optional<Path> fileOf(String url) {
    if (url == null || !url.startsWith(URL_PREFIX)) {
      return Optional.empty();
    }
    // The path of a checked URL holds no ';': the first one ends it.
    int end = url.indexOf(';');
    return Optional.of(Path.of(url.substring(URL_PREFIX.length(), end < 0 ? url.length() : end)
        + SUFFIX));
  }

  /**
   * Creates {@code folder} (checked) and missing parents owner-only (rwx------) where the file
   * system has POSIX permissions: H2 creates the journal files inside with the process's umask,
   * usually readable by all, and the folder keeps others out of them. A folder that exists is the
   * user's and keeps its permissions.
   */
  public static Path createFolder(Path folder) throws IOException {
    Path dir = folder(folder);
    if (Files.isDirectory(dir)) {
      return dir;
    }
    if (posix(dir)) {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_FOLDER));
    } else {
      Files.createDirectories(dir);
    }
    return dir;
  }

  /** Makes {@code file} owner-only (rw-------) if it exists and its file system has POSIX. */
  public static void restrictToOwner(Path file) throws IOException {
    if (Files.isRegularFile(file) && posix(file)) {
      Files.setPosixFilePermissions(file, OWNER_FILE);
    }
  }

  private static boolean posix(Path p) {
    return p.getFileSystem().supportedFileAttributeViews().contains("posix");
  }

  private static void checkName(String name) {
    if (name == null) {
      throw new IllegalArgumentException("journal name is missing");
    }
    if (name.isEmpty()) {
      throw new IllegalArgumentException("journal name \"\" is empty");
    }
    String reason = nameReason(name);
    if (reason != null) {
      throw new IllegalArgumentException("journal name " + shown(name) + " " + reason);
    }
  }

  /** Why {@code name} cannot be a journal's file name, null when it can. */
  private static String nameReason(String name) {
    for (int i = 0; i < name.length(); ) {
      int c = name.codePointAt(i);
      String reason = urlReason(c);
      if (reason != null) {
        return "holds " + reason;
      }
      if (c == ':') {
        return "holds ':', which H2 would read as a file system prefix (as in mem: or zip:)";
      }
      if (c == '/' || c == '\\') {
        return "holds '" + (char) c + "', a path separator: the journal would leave its folder";
      }
      if (!(c < 128 && (Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-'))) {
        return "holds '" + new String(Character.toChars(c))
            + "': a journal name is letters, digits, '.', '_' and '-'";
      }
      i += Character.charCount(c);
    }
    char first = name.charAt(0);
    if (first == '.' || first == '-') {
      // '.' would hide the file and allow "..", the folder above; '-' reads as an option.
      return "starts with '" + first + "': a journal name starts with a letter, digit or '_'";
    }
    return null;
  }

  private static String folderReason(String element) {
    for (int i = 0; i < element.length(); ) {
      int c = element.codePointAt(i);
      String reason = urlReason(c);
      if (reason != null) {
        return reason;
      }
      i += Character.charCount(c);
    }
    return null;
  }

  /** Why {@code c} may not stand in an H2 URL's path, null when it may. */
  private static String urlReason(int c) {
    if (c == ';') {
      return "';', which an H2 URL would read as the start of a setting";
    }
    if (c == '=') {
      return "'=', which an H2 URL would read as a setting's value";
    }
    if (Character.isISOControl(c)) {
      return String.format("control character U+%04X", c);
    }
    return null;
  }

  /** {@code value} for a one-line message: control characters escaped as in a Java literal. */
  public static String printable(String value) {
    StringBuilder b = new StringBuilder();
    value.codePoints().forEach(c -> {
      if (c == '\n') {
        b.append("\\n");
      } else if (c == '\t') {
        b.append("\\t");
      } else if (Character.isISOControl(c)) {
        b.append(String.format("\\u%04X", c));
      } else {
        b.appendCodePoint(c);
      }
    });
    return b.toString();
  }

  /** {@code value} {@link #printable} and quoted, cut to {@value #SHOWN} characters. */
  static String shown(String value) {
    String s = printable(value);
    if (s.length() > SHOWN) {
      int cut = SHOWN - 3;
      if (Character.isHighSurrogate(s.charAt(cut - 1))) {
        cut--; // not half a character
      }
      s = s.substring(0, cut) + "...";
    }
    return "\"" + s + "\"";
  }
}

package io.rackfabric.cluster.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * {@code rackfabric.cluster.tls}: the rack's key and trust stores for Artery's tls-tcp transport,
 * resolved to absolute paths and opened once with the password, so that a missing file or a wrong
 * password is refused with its path before any actor system starts.
 *
 * @param keyStore PKCS12 store holding this node's private key and its certificate chain
 * @param trustStore PKCS12 store holding the rack's CA certificate
 * @param passwordFile the file the password came from, or null when it came from {@code passwordEnv}
 * @param passwordEnv the environment variable read when there is no password file
 * @param password the password of both stores and of the key
 */
public record TlsSettings(Path keyStore, Path trustStore, Path passwordFile, String passwordEnv, String password) {

  /** What {@code rack keys} writes into its folder. */
  public static final String KEY_STORE = "node.p12";
  public static final String TRUST_STORE = "truststore.p12";
  public static final String PASSWORD_FILE = "password";

  /** TLS 1.3's AEAD suites; nothing older is offered. */
  public static final List<String> CIPHER_SUITES = List.of("TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256");

  /** A scheme ("file:", "http:", "jar:") would make the value a URL, not a path. */
  private static final Pattern URL_SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

  private static final Set<PosixFilePermission> OTHERS = Set.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  /**
   * Reads the stores' locations from {@code tls} ({@code rackfabric.cluster.tls}) or, when given,
   * from {@code dir} (a folder made by {@code rack keys}, which then wins over every path setting),
   * and opens them.
   *
   * @param env the environment, {@code System::getenv} outside tests
   * @throws IllegalArgumentException naming the setting and path that is missing, unreadable, not a
   *     plain file path, or whose password is wrong
   */
  public static TlsSettings resolve(Config tls, String dir, Function<String, String> env) {
    String dirValue = dir != null ? dir : tls.getString("dir");
    Path folder = dirValue.isEmpty() ? null : path("tls dir", dirValue);
    if (folder != null && !Files.isDirectory(folder)) {
      throw new IllegalArgumentException("tls dir " + folder + ": no such folder (make one with rack keys --out "
          + folder + ")");
    }
    boolean fromDir = dir != null;
    Path keyStore = file("key-store", fromDir ? "" : tls.getString("key-store"), folder, KEY_STORE);
    Path trustStore = file("trust-store", fromDir ? "" : tls.getString("trust-store"), folder, TRUST_STORE);
    String passwordEnv = tls.getString("password-env");
    String configured = fromDir ? "" : tls.getString("password-file");
    Path passwordFile = null;
    if (!configured.isEmpty()) {
      passwordFile = file("password-file", configured, folder, PASSWORD_FILE);
    } else if (folder != null && Files.exists(folder.resolve(PASSWORD_FILE))) {
      passwordFile = file("password-file", "", folder, PASSWORD_FILE);
    }
    String password;
    if (passwordFile != null) {
      password = readPasswordFile(passwordFile);
    } else {
      password = passwordEnv.isEmpty() ? null : env.apply(passwordEnv);
      if (password == null || password.isEmpty()) {
        throw new IllegalArgumentException("tls: no password: no password file"
            + (folder == null ? "" : " " + folder.resolve(PASSWORD_FILE)) + " and environment variable "
            + (passwordEnv.isEmpty() ? "(password-env is empty)" : passwordEnv + " is not set"));
      }
    }
    String source = passwordFile != null ? "password file " + passwordFile : "environment variable " + passwordEnv;
    KeyStore keys = open("key-store", keyStore, password, source);
    KeyStore trust = open("trust-store", trustStore, password, source);
    try {
      if (Collections.list(keys.aliases()).stream().noneMatch(a -> isKey(keys, a))) {
        throw new IllegalArgumentException("tls key-store " + keyStore + ": holds no private key");
      }
      for (String alias : Collections.list(keys.aliases())) {
        if (isKey(keys, alias)) {
          keys.getKey(alias, password.toCharArray()); // Akka reads the key with the same password
        }
      }
      if (Collections.list(trust.aliases()).stream().noneMatch(a -> isCertificate(trust, a))) {
        throw new IllegalArgumentException("tls trust-store " + trustStore + ": holds no trusted certificate");
      }
    } catch (UnrecoverableKeyException e) {
      throw new IllegalArgumentException("tls key-store " + keyStore + ": its key does not open with the password"
          + " from " + source);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("tls key-store " + keyStore + ": " + e.getMessage());
    }
    return new TlsSettings(keyStore, trustStore, passwordFile, passwordEnv, password);
  }

  /** Artery's settings for this rack's stores: TLS 1.3 only, both ends show a certificate. */
  public Config artery() {
    String p = "akka.remote.artery.ssl.config-ssl-engine.";
    return ConfigFactory.empty()
        .withValue("akka.remote.artery.ssl.ssl-engine-provider",
            ConfigValueFactory.fromAnyRef("akka.remote.artery.tcp.ConfigSSLEngineProvider"))
        .withValue(p + "key-store", ConfigValueFactory.fromAnyRef(keyStore.toString()))
        .withValue(p + "trust-store", ConfigValueFactory.fromAnyRef(trustStore.toString()))
        .withValue(p + "key-store-password", ConfigValueFactory.fromAnyRef(password))
        .withValue(p + "key-password", ConfigValueFactory.fromAnyRef(password))
        .withValue(p + "trust-store-password", ConfigValueFactory.fromAnyRef(password))
        .withValue(p + "protocol", ConfigValueFactory.fromAnyRef("TLSv1.3"))
        .withValue(p + "enabled-algorithms", ConfigValueFactory.fromIterable(CIPHER_SUITES))
        .withValue(p + "random-number-generator", ConfigValueFactory.fromAnyRef(""))
        .withValue(p + "require-mutual-authentication", ConfigValueFactory.fromAnyRef("on"))
        // Every node of a rack shows the one certificate of its keys folder, whatever its host name.
        .withValue(p + "hostname-verification", ConfigValueFactory.fromAnyRef("off"));
  }

  /**
   * The settings a child JVM needs to resolve the same stores ({@code rackfabric.cluster.tls.*},
   * as system properties): paths only, never the password.
   */
  public java.util.Map<String, String> childSettings() {
    java.util.Map<String, String> m = new java.util.TreeMap<>();
    m.put("rackfabric.cluster.tls.key-store", keyStore.toString());
    m.put("rackfabric.cluster.tls.trust-store", trustStore.toString());
    m.put("rackfabric.cluster.tls.password-file", passwordFile == null ? "" : passwordFile.toString());
    m.put("rackfabric.cluster.tls.password-env", passwordEnv);
    return m;
  }

  @Override
  public String toString() {
    return "TlsSettings[keyStore=" + keyStore + ", trustStore=" + trustStore + ", password from "
        + (passwordFile != null ? passwordFile : "$" + passwordEnv) + "]";
  }

  /**
   * {@code value} as an absolute path, refused when it is a URL or no path at all.
   *
   * @param name what the value is, for the message: {@code --out}, {@code tls key-store}
   */
  public static Path path(String name, String value) {
    if (URL_SCHEME.matcher(value).find()) {
      throw new IllegalArgumentException(name + "=" + value + ": a URL, not a file path");
    }
    try {
      return Path.of(value).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(name + "=" + value + ": not a file path (" + e.getReason() + ")");
    }
  }

  private static Path file(String setting, String value, Path folder, String inFolder) {
    Path p;
    if (!value.isEmpty()) {
      p = path("tls " + setting, value);
    } else if (folder != null) {
      p = folder.resolve(inFolder);
    } else {
      throw new IllegalArgumentException("tls: no " + setting + ": give --tls-dir DIR (a folder made by rack keys)"
          + " or set rackfabric.cluster.tls.dir or rackfabric.cluster.tls." + setting);
    }
    if (!Files.exists(p)) {
      throw new IllegalArgumentException("tls " + setting + " " + p + ": no such file");
    }
    if (!Files.isRegularFile(p)) {
      throw new IllegalArgumentException("tls " + setting + " " + p + ": not a regular file");
    }
    if (!Files.isReadable(p)) {
      throw new IllegalArgumentException("tls " + setting + " " + p + ": not readable");
    }
    return p;
  }

  private static String readPasswordFile(Path file) {
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
      if (perms.stream().anyMatch(OTHERS::contains)) {
        throw new IllegalArgumentException("tls password-file " + file + ": readable or writable by others (mode "
            + PosixFilePermissions.toString(perms) + "); chmod 600 it");
      }
    } catch (UnsupportedOperationException e) {
      // a file system without POSIX modes: nothing to check
    } catch (IOException e) {
      throw new IllegalArgumentException("tls password-file " + file + ": " + e.getMessage());
    }
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException("tls password-file " + file + ": cannot be read (" + e.getMessage() + ")");
    }
    String line = text.lines().findFirst().orElse("").strip();
    if (line.isEmpty()) {
      throw new IllegalArgumentException("tls password-file " + file + ": empty");
    }
    return line;
  }

  private static KeyStore open(String setting, Path file, String password, String source) {
    try (InputStream in = Files.newInputStream(file)) {
      // PKCS12, the JDK's default type, which is also what Artery opens the stores as.
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(in, password.toCharArray());
      return ks;
    } catch (IOException e) {
      if (e.getCause() instanceof UnrecoverableKeyException) {
        throw new IllegalArgumentException("tls " + setting + " " + file + ": wrong password (from " + source + ")");
      }
      throw new IllegalArgumentException("tls " + setting + " " + file + ": not a PKCS12 store (" + e.getMessage()
          + ")");
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("tls " + setting + " " + file + ": " + e.getMessage());
    }
  }

  private static boolean isKey(KeyStore ks, String alias) {
    try {
      return ks.isKeyEntry(alias);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  private static boolean isCertificate(KeyStore ks, String alias) {
    try {
      return ks.isCertificateEntry(alias);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }
}

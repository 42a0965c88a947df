package io.rackfabric.cluster.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.keys.RackKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rack's stores are opened when the settings are read: each fault is named with its path. */
class TlsSettingsTest {

  @TempDir
  Path tmp;

  private Path keys;
  private final Map<String, String> noEnv = Map.of();

  @BeforeEach
  void makeKeys() {
    keys = tmp.resolve("keys");
    RackKeys.create(keys, false);
  }

  private static Config tls(String settings) {
    return ConfigFactory.parseString(settings).withFallback(ConfigFactory.load()).getConfig("rackfabric.cluster.tls");
  }

  private String refusal(Config tls, String dir, Map<String, String> env) {
    return assertThrows(IllegalArgumentException.class, () -> TlsSettings.resolve(tls, dir, env::get)).getMessage();
  }

  @Test
  void shouldOpenTheStoresWhenTheFolderIsWhatRackKeysMade() {
    TlsSettings s = TlsSettings.resolve(tls(""), keys.toString(), noEnv::get);
    assertEquals(keys.resolve("node.p12"), s.keyStore());
    assertEquals(keys.resolve("truststore.p12"), s.trustStore());
    assertEquals(keys.resolve("password"), s.passwordFile());
    assertFalse(s.toString().contains(s.password()), "the password stays out of toString: " + s);
    Config artery = s.artery().getConfig("akka.remote.artery.ssl.config-ssl-engine");
    assertEquals("TLSv1.3", artery.getString("protocol"));
    assertTrue(artery.getBoolean("require-mutual-authentication"));
    assertEquals(keys.resolve("node.p12").toString(), artery.getString("key-store"));
  }

  @Test
  void shouldNameTheKeyStoreWhenItIsMissing() throws Exception {
    Files.delete(keys.resolve("node.p12"));
    assertEquals("tls key-store " + keys.resolve("node.p12") + ": no such file", refusal(tls(""), keys.toString(),
        noEnv));
  }

  @Test
  void shouldNameTheTrustStoreWhenItIsAFolder() throws Exception {
    Path store = tmp.resolve("trust");
    Files.createDirectory(store);
    Config c = tls("rackfabric.cluster.tls { dir = \"" + keys + "\", trust-store = \"" + store + "\" }");
    assertEquals("tls trust-store " + store + ": not a regular file", refusal(c, null, noEnv));
  }

  @Test
  void shouldSayWrongPasswordNamingTheStoreAndThePasswordFileWhenThePasswordFileIsBad() throws Exception {
    Files.writeString(keys.resolve("password"), "not-the-password\n");
    assertEquals("tls key-store " + keys.resolve("node.p12") + ": wrong password (from password file "
        + keys.resolve("password") + ")", refusal(tls(""), keys.toString(), noEnv));
  }

  @Test
  void shouldRefuseAPasswordFileOthersCanRead() throws Exception {
    Files.setPosixFilePermissions(keys.resolve("password"), PosixFilePermissions.fromString("rw-r--r--"));
    assertEquals("tls password-file " + keys.resolve("password") + ": readable or writable by others (mode"
        + " rw-r--r--); chmod 600 it", refusal(tls(""), keys.toString(), noEnv));
  }

  @Test
  void shouldTakeThePasswordFromTheEnvironmentWhenThereIsNoPasswordFile() throws Exception {
    String password = Files.readString(keys.resolve("password")).strip();
    Files.delete(keys.resolve("password"));
    assertEquals("tls: no password: no password file " + keys.resolve("password") + " and environment variable"
        + " RACK_TLS_PASSWORD is not set", refusal(tls(""), keys.toString(), noEnv));
    TlsSettings s = TlsSettings.resolve(tls(""), keys.toString(), Map.of("RACK_TLS_PASSWORD", password)::get);
    assertEquals(null, s.passwordFile());
    assertEquals("tls key-store " + keys.resolve("node.p12") + ": wrong password (from environment variable"
        + " RACK_TLS_PASSWORD)", refusal(tls(""), keys.toString(), Map.of("RACK_TLS_PASSWORD", "guess")));
  }

  @Test
  void shouldRefuseAStorePathWithUrlSyntax() {
    Config c = tls("rackfabric.cluster.tls { dir = \"" + keys + "\", key-store = \"file:/etc/passwd\" }");
    assertEquals("tls key-store=file:/etc/passwd: a URL, not a file path", refusal(c, null, noEnv));
  }

  @Test
  void shouldAskForTheStoresWhenNoFolderOrPathIsSet() {
    assertEquals("tls: no key-store: give --tls-dir DIR (a folder made by rack keys) or set"
        + " rackfabric.cluster.tls.dir or rackfabric.cluster.tls.key-store", refusal(tls(""), null, noEnv));
  }

  @Test
  void shouldRefuseTlsTcpWithoutStoresInClusterSettings() {
    Config missing = ConfigFactory.parseString("rackfabric.cluster.tls.dir = \"" + tmp.resolve("nowhere") + "\"")
        .withFallback(ConfigFactory.load());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ClusterSettings.create(missing, "tls-tcp", null));
    assertEquals("tls dir " + tmp.resolve("nowhere") + ": no such folder (make one with rack keys --out "
        + tmp.resolve("nowhere") + ")", e.getMessage());
    assertEquals(null, ClusterSettings.create(missing, "tcp", null).tls(), "other transports need no stores");
  }
}

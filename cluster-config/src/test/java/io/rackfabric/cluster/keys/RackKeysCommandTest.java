package io.rackfabric.cluster.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.cli.Rack;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rack keys --out DIR}: owner-only stores whose node certificate chains to the trust store's CA. */
class RackKeysCommandTest {

  @TempDir
  Path tmp;

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int rack(String... args) {
    err.reset();
    return Rack.run(List.of(args), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private static KeyStore open(Path file, char[] password) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      ks.load(in, password);
    }
    return ks;
  }

  @Test
  void shouldMakeOwnerOnlyStoresWhoseNodeCertificateChainsToTheTrustedCaWhenTheFolderIsNew() throws Exception {
    Path dir = tmp.resolve("a/keys");
    assertEquals(0, rack("keys", "--out", dir.toString()), err());
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
    try (var files = Files.list(dir)) {
      assertEquals(List.of("node.p12", "password", "truststore.p12"),
          files.map(p -> p.getFileName().toString()).sorted().toList());
    }
    for (String f : List.of("node.p12", "password", "truststore.p12")) {
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(f))), f);
    }
    char[] password = Files.readString(dir.resolve("password")).strip().toCharArray();
    KeyStore keys = open(dir.resolve("node.p12"), password);
    KeyStore trust = open(dir.resolve("truststore.p12"), password);
    assertTrue(keys.isKeyEntry(RackKeys.NODE_ALIAS));
    assertTrue(keys.getKey(RackKeys.NODE_ALIAS, password) != null, "the key opens with the store's password");
    X509Certificate ca = (X509Certificate) trust.getCertificate(RackKeys.CA_ALIAS);
    assertEquals(List.of(RackKeys.CA_ALIAS), java.util.Collections.list(trust.aliases()));
    List<X509Certificate> chain = Arrays.stream(keys.getCertificateChain(RackKeys.NODE_ALIAS))
        .map(c -> (X509Certificate) c).toList();
    // The node's certificate alone (without the CA copy of its chain) validates against the trust store.
    var path = CertificateFactory.getInstance("X.509").generateCertPath(chain.subList(0, 1));
    PKIXParameters params = new PKIXParameters(trust);
    params.setRevocationEnabled(false);
    CertPathValidator.getInstance("PKIX").validate(path, params);
    assertEquals(ca, chain.get(chain.size() - 1));
    assertEquals(-1, chain.get(0).getBasicConstraints(), "the node's certificate is no CA");
  }

  @Test
  void shouldRefuseToReplaceKeysUnlessForcedAndThenMakeNewOnes() throws Exception {
    Path dir = tmp.resolve("keys");
    assertEquals(0, rack("keys", "--out", dir.toString()), err());
    byte[] before = Files.readAllBytes(dir.resolve("node.p12"));
    assertEquals(2, rack("keys", "--out", dir.toString()));
    assertEquals("rack keys: " + dir + ": already holds [node.p12, password, truststore.p12];"
        + " --force replaces its keys\n", err());
    assertTrue(Arrays.equals(before, Files.readAllBytes(dir.resolve("node.p12"))), "left as it was");
    assertEquals(0, rack("keys", "--out", dir.toString(), "--force"), err());
    assertNotEquals(Arrays.toString(before), Arrays.toString(Files.readAllBytes(dir.resolve("node.p12"))));
  }

  @Test
  void shouldExitTwoNamingThePathWhenTheFolderIsAFileOrAUrl() throws Exception {
    Path file = Files.writeString(tmp.resolve("plain"), "x");
    assertEquals(2, rack("keys", "--out", file.toString()));
    assertEquals("rack keys: " + file + ": exists and is not a folder\n", err());
    assertEquals(2, rack("keys", "--out", "file:/tmp/k"));
    assertEquals("rack keys: --out=file:/tmp/k: a URL, not a file path\n", err());
    assertEquals(2, rack("keys"));
    assertEquals("rack keys: --out is required\n", err());
  }
}

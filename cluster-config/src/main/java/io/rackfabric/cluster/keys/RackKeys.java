package io.rackfabric.cluster.keys;

import io.rackfabric.cluster.node.TlsSettings;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A rack's keys for a local run: a CA made for this rack only, one node key pair with a certificate
 * the CA signed (every node of the rack shows it), a trust store holding only the CA, and the
 * password of both stores. The CA's private key is not kept: the folder is all a rack needs, and
 * nothing outside it can sign a second certificate the rack would accept.
 */
public final class RackKeys {

  /** How long the certificates are valid. */
  public static final Duration VALIDITY = Duration.ofDays(2 * 365);

  /** The alias of the node's key in the key store and of the CA in the trust store. */
  public static final String NODE_ALIAS = "node";
  public static final String CA_ALIAS = "rack-ca";

  private static final String OWNER_ONLY_DIR = "rwx------";
  private static final String OWNER_ONLY_FILE = "rw-------";
  private static final String SIGNATURE = "SHA256withECDSA";

  private RackKeys() {}

  /** What {@link #create} wrote. */
  public record Made(Path dir, Path keyStore, Path trustStore, Path passwordFile, X509Certificate ca,
      X509Certificate node) {}

  /**
   * Writes the keys into {@code dir}, made owner-only if missing.
   *
   * @param force replace the keys of a folder that already holds some
   * @throws IllegalArgumentException naming the folder when it is not one, already holds keys
   *     (without {@code force}) or cannot be written
   */
  public static Made create(Path dir, boolean force) {
    Path out = dir.toAbsolutePath().normalize();
    prepare(out, force);
    SecureRandom random = new SecureRandom();
    try {
      KeyPair caKeys = ecKeyPair(random);
      KeyPair nodeKeys = ecKeyPair(random);
      byte[] idBytes = new byte[4];
      random.nextBytes(idBytes);
      String id = HexFormat.of().formatHex(idBytes); // tells two racks' certificates apart
      X500Principal caName = new X500Principal("CN=rackfabric rack CA " + id);
      X500Principal nodeName = new X500Principal("CN=rackfabric node " + id);
      X509Certificate ca = certificate(caName, caKeys, caName, caKeys, true, random);
      X509Certificate node = certificate(nodeName, nodeKeys, caName, caKeys, false, random);
      byte[] secret = new byte[32];
      random.nextBytes(secret);
      String password = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);

      KeyStore keyStore = KeyStore.getInstance("PKCS12");
      keyStore.load(null, null);
      keyStore.setKeyEntry(NODE_ALIAS, nodeKeys.getPrivate(), password.toCharArray(), new Certificate[] {node, ca});
      KeyStore trustStore = KeyStore.getInstance("PKCS12");
      trustStore.load(null, null);
      trustStore.setCertificateEntry(CA_ALIAS, ca);

      Path keyFile = out.resolve(TlsSettings.KEY_STORE);
      Path trustFile = out.resolve(TlsSettings.TRUST_STORE);
      Path passwordFile = out.resolve(TlsSettings.PASSWORD_FILE);
      write(passwordFile, o -> o.write((password + "\n").getBytes(StandardCharsets.UTF_8)));
      write(keyFile, o -> keyStore.store(o, password.toCharArray()));
      write(trustFile, o -> trustStore.store(o, password.toCharArray()));
      return new Made(out, keyFile, trustFile, passwordFile, ca, node);
    } catch (GeneralSecurityException | OperatorCreationException | CertIOException e) {
      throw new IllegalStateException("could not make the rack's keys: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new IllegalArgumentException(out + ": cannot write the keys (" + e.getMessage() + ")");
    }
  }

  private static void prepare(Path out, boolean force) {
    try {
      if (Files.exists(out) && !Files.isDirectory(out)) {
        throw new IllegalArgumentException(out + ": exists and is not a folder");
      }
      if (Files.isDirectory(out)) {
        try (Stream<Path> held = Files.list(out)) {
          List<String> names = held.map(p -> p.getFileName().toString()).sorted().toList();
          if (!names.isEmpty() && !force) {
            throw new IllegalArgumentException(out + ": already holds " + names + "; --force replaces its keys");
          }
        }
      } else {
        Files.createDirectories(out);
      }
      // Set rather than asked for at creation, where the umask could take bits away or leave some.
      Files.setPosixFilePermissions(out, PosixFilePermissions.fromString(OWNER_ONLY_DIR));
    } catch (IOException e) {
      throw new IllegalArgumentException(out + ": cannot make the keys folder (" + e + ")");
    }
  }

  private static KeyPair ecKeyPair(SecureRandom random) throws GeneralSecurityException {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(new ECGenParameterSpec("secp256r1"), random);
    return g.generateKeyPair();
  }

  private static X509Certificate certificate(X500Principal subject, KeyPair subjectKeys, X500Principal issuer,
      KeyPair issuerKeys, boolean isCa, SecureRandom random)
      throws GeneralSecurityException, OperatorCreationException, CertIOException {
    Instant now = Instant.now();
    // Back-dated a little, so that a node whose clock is slightly behind accepts it at once.
    X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer, new BigInteger(64, random).add(BigInteger.ONE),
        Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(VALIDITY)), subject, subjectKeys.getPublic());
    JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
    b.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
    b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(subjectKeys.getPublic()));
    b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(issuerKeys.getPublic()));
    if (isCa) {
      b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
    } else {
      b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
      // Every node is a TLS server to the members that connect to it and a client to those it connects to.
      b.addExtension(Extension.extendedKeyUsage, false,
          new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
    }
    X509Certificate cert = new JcaX509CertificateConverter()
        .getCertificate(b.build(new JcaContentSignerBuilder(SIGNATURE).build(issuerKeys.getPrivate())));
    cert.verify(issuerKeys.getPublic());
    return cert;
  }

  private interface Writer {
    void write(OutputStream out) throws IOException, GeneralSecurityException;
  }

  /** Writes a file owner-only from its first byte: a temporary file made 0600, then renamed. */
  private static void write(Path file, Writer content) throws IOException, GeneralSecurityException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    try {
      Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(OWNER_ONLY_FILE)));
    } catch (FileAlreadyExistsException e) {
      throw new IOException(tmp + " appeared while writing", e);
    }
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString(OWNER_ONLY_FILE));
    try (OutputStream out = Files.newOutputStream(tmp)) {
      content.write(out);
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}

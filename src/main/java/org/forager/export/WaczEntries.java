package org.forager.export;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The ZIP of a WACZ, entry by entry, keeping for each its {@code datapackage.json} resource: path,
 * SHA-256 and size of the entry's content. WARC files go in stored (uncompressed), as WACZ
 * requires so that a reader can fetch one record by its offset with an HTTP range request; text
 * entries are deflated, which WACZ allows. ZIP64 is used by {@code java.util.zip} where sizes or
 * counts need it. Not thread-safe.
 */
final class WaczEntries implements AutoCloseable {

  /** One file of the package as {@code datapackage.json} lists it. */
  record Resource(String name, String path, String hash, long bytes) {}

  /** Writes the content of a text entry. */
  @FunctionalInterface
  interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  private final ZipOutputStream zip;
  private final long time;
  private final List<Resource> resources = new ArrayList<>();

  /** @param created the time every entry carries, so that one export's entries agree */
  WaczEntries(OutputStream out, Instant created) {
    this.zip = new ZipOutputStream(out);
    this.time = created.toEpochMilli();
  }

  /**
   * Adds {@code file} stored, at {@code path}. Reads it twice: once for the CRC-32 a stored entry's
   * header needs before its data (and the SHA-256), once to copy it.
   */
  Resource addStored(String path, Path file) throws IOException {
    CRC32 crc = new CRC32();
    MessageDigest sha256 = sha256();
    long size = 0;
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buffer)) >= 0; size += n) {
        crc.update(buffer, 0, n);
        sha256.update(buffer, 0, n);
      }
    }
    ZipEntry entry = entry(path);
    entry.setMethod(ZipEntry.STORED);
    entry.setSize(size);
    entry.setCompressedSize(size);
    entry.setCrc(crc.getValue());
    zip.putNextEntry(entry);
    try (InputStream in = Files.newInputStream(file)) {
      // The file is finished and never changes; a different length would be a broken entry.
      if (in.transferTo(zip) != size) throw new IOException(file + " changed while it was exported");
    }
    zip.closeEntry();
    return add(path, sha256, size);
  }

  /** Adds a deflated entry at {@code path} with what {@code content} writes. */
  Resource addDeflated(String path, Content content) throws IOException {
    zip.putNextEntry(entry(path));
    MessageDigest sha256 = sha256();
    long[] size = {0};
    OutputStream hashing = new FilterOutputStream(zip) {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        sha256.update(b, off, len);
        size[0] += len;
        out.write(b, off, len);
      }

      @Override
      public void close() {
        // The entry is closed below; the ZIP stays open.
      }
    };
    content.writeTo(hashing);
    hashing.flush();
    zip.closeEntry();
    return add(path, sha256, size[0]);
  }

  /** The resources added so far, in order. */
  List<Resource> resources() {
    return List.copyOf(resources);
  }

  /** Writes the ZIP's central directory and closes the output. */
  @Override
  public void close() throws IOException {
    zip.close();
  }

  /** {@code sha256:} and the lower-case hex digest, the form WACZ uses. */
  static String hash(MessageDigest sha256) {
    return "sha256:" + HexFormat.of().formatHex(sha256.digest());
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  private Resource add(String path, MessageDigest sha256, long size) {
    Resource resource = new Resource(path.substring(path.lastIndexOf('/') + 1), path, hash(sha256), size);
    resources.add(resource);
    return resource;
  }

  private ZipEntry entry(String path) {
    ZipEntry entry = new ZipEntry(path);
    entry.setTime(time);
    return entry;
  }
}

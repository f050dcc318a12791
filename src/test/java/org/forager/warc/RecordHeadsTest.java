package org.forager.warc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The records' beginnings read for indexing: any gzip header, the head or the whole, zstd frames. */
class RecordHeadsTest {

  @TempDir Path dir;

  private static byte[] record(int bytes) {
    byte[] r = new byte[bytes];
    for (int i = 0; i < bytes; i++) r[i] = (byte) ('a' + i * 7 % 26);
    return r;
  }

  /** A gzip member with a name and an extra field in its header, as another writer may make. */
  private static byte[] memberWithOptionalFields(byte[] plain) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 4 | 8, 0, 0, 0, 0, 0, (byte) 0xff});
    out.writeBytes(new byte[] {3, 0, 'x', 'y', 'z'}); // FEXTRA: length 3
    out.writeBytes("name.warc\0".getBytes(StandardCharsets.ISO_8859_1)); // FNAME
    Deflater deflater = new Deflater(6, true);
    deflater.setInput(plain);
    deflater.finish();
    byte[] buffer = new byte[plain.length + 1024];
    out.write(buffer, 0, deflater.deflate(buffer));
    deflater.end();
    CRC32 crc = new CRC32();
    crc.update(plain);
    for (long v : new long[] {crc.getValue(), plain.length}) {
      for (int i = 0; i < 4; i++) out.write((int) (v >>> (8 * i)));
    }
    return out.toByteArray();
  }

  private RecordSpan write(byte[]... units) throws IOException {
    Path file = dir.resolve("f");
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    all.writeBytes("some bytes before".getBytes(StandardCharsets.US_ASCII));
    long offset = all.size();
    for (byte[] unit : units) all.writeBytes(unit);
    Files.write(file, all.toByteArray());
    return new RecordSpan(offset, all.size() - offset);
  }

  @Test
  void aMemberWithOptionalHeaderFieldsGivesItsHeadOrItsWhole() throws IOException {
    byte[] plain = record(200_000);
    RecordSpan span = write(memberWithOptionalFields(plain));
    try (FileChannel file = FileChannel.open(dir.resolve("f"));
        RecordHeads heads = new RecordHeads(file, RecordCompression.Format.GZIP)) {
      assertArrayEquals(Arrays.copyOf(plain, RecordHeads.HEAD_BYTES), heads.head(span));
      assertArrayEquals(plain, heads.whole(span));
      assertArrayEquals(Arrays.copyOf(plain, RecordHeads.HEAD_BYTES), heads.head(span), "read again, inflater reused");
    }
  }

  @Test
  void aHeadEndsSoonAfterTheHttpHeadersNotAtTheBodysEnd() throws IOException {
    byte[] headers = ("WARC/1.1\r\nWARC-Type: response\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
    byte[] plain = new byte[headers.length + 500_000];
    System.arraycopy(headers, 0, plain, 0, headers.length);
    System.arraycopy(record(500_000), 0, plain, headers.length, 500_000);
    RecordSpan span = write(memberWithOptionalFields(plain));
    try (FileChannel file = FileChannel.open(dir.resolve("f"));
        RecordHeads heads = new RecordHeads(file, RecordCompression.Format.GZIP)) {
      byte[] head = heads.head(span);
      assertArrayEquals(Arrays.copyOf(plain, head.length), head);
      assertEquals(2, RecordHeads.blankLines(head));
      assertTrue(head.length <= 4096, head.length + " bytes inflated for " + headers.length + " of headers");
    }
  }

  @Test
  void aZstdFrameGivesItsHeadOrItsWhole() throws IOException {
    byte[] plain = record(100_000);
    RecordSpan span = write(Zstd.compress(plain, 1));
    try (FileChannel file = FileChannel.open(dir.resolve("f"));
        RecordHeads heads = new RecordHeads(file, RecordCompression.Format.ZSTD)) {
      assertEquals(RecordHeads.HEAD_BYTES, heads.head(span).length);
      assertArrayEquals(plain, heads.whole(span));
    }
  }
}

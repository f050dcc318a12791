package org.forager.warc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.forager.fetch.FetchResult;
import org.forager.fetch.Header;
import org.junit.jupiter.api.Test;

/**
 * The native SHA-1 pair gives the JDK's digests, for every split of head and body around the 64-byte
 * blocks, and the response record carries them. Where the build made the library
 * ({@code target/native/sha1.status} says "built") on a CPU with the SHA extensions, it must be in use:
 * a library that silently failed to load would cost the crawl a second SHA-1 pass.
 */
class Sha1PairTest {

  @Test
  void isInUseWhereTheBuildMadeItAndTheCpuRunsIt() throws Exception {
    Path status = Path.of("target", "native", "sha1.status");
    String built = Files.isRegularFile(status) ? Files.readString(status).strip() : "";
    if (built.equals("built") && System.getProperty(Sha1Pair.DIRECTORY_PROPERTY) == null) {
      if (cpuHasShaExtensions()) {
        assertEquals(Optional.empty(), Sha1Pair.unavailable(), "the native SHA-1 pair is used here");
      } else {
        assertEquals(Optional.of("this CPU has no SHA extensions: WARC digests by the JDK"), Sha1Pair.unavailable());
      }
    } else if (!built.isEmpty()) {
      assertTrue(Sha1Pair.unavailable().isPresent(), "not built (" + built + "), so not used");
    }
    // Whatever the machine: no digests from a pair that is not used, none above the buffer.
    assertEquals(Sha1Pair.unavailable().isEmpty(), Sha1Pair.of(new byte[1], new byte[1]).isPresent());
    assertTrue(Sha1Pair.of(new byte[0], new byte[Sha1Pair.BUFFER_BYTES]).isEmpty());
  }

  @Test
  void givesTheJdksDigestsForEveryLengthAroundTheBlocks() throws Exception {
    assumeTrue(Sha1Pair.unavailable().isEmpty(), "the JDK's digests are used here, and tested as before");
    Random random = new Random(15);
    for (int headLength = 0; headLength <= 130; headLength += 13) {
      for (int bodyLength = 0; bodyLength <= 200; bodyLength++) {
        check(bytes(random, headLength), bytes(random, bodyLength));
      }
    }
    for (int bodyLength : new int[] {30_000, 65_536, 65_537, Sha1Pair.BUFFER_BYTES - 251}) {
      check(bytes(random, 211), bytes(random, bodyLength));
    }
  }

  @Test
  void manyThreadsAtOnceGetTheirOwnDigests() throws Exception {
    assumeTrue(Sha1Pair.unavailable().isEmpty(), "the JDK's digests are used here");
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < 8; t++) {
      int seed = t;
      threads.add(Thread.ofVirtual().start(() -> {
        Random random = new Random(seed);
        try {
          for (int i = 0; i < 200; i++) {
            check(bytes(random, random.nextInt(300)), bytes(random, random.nextInt(40_000)));
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      }));
    }
    for (Thread thread : threads) thread.join();
    assertEquals(List.of(), failures);
  }

  @Test
  void theResponseRecordCarriesTheBlockAndPayloadDigestsOfItsBytes() throws Exception {
    byte[] body = "<html><p>a page long enough to span a block or two of SHA-1, and then some</p></html>"
        .repeat(7).getBytes(UTF_8);
    FetchResult.Response response = Responses.response("http://example.org/", 200,
        List.of(new Header("Content-Type", "text/html")), body, body, Optional.empty());
    BodyDigests digests = BodyDigests.of(response);
    byte[] head = HttpHead.of(response);
    assertEquals(Sha1Pair.unavailable().isEmpty(), digests.headAndBlock(response).isPresent());
    digests.headAndBlock(response).ifPresent(computed -> assertArrayEquals(head, computed.head()));
    List<CaptureRecords.Entry> entries = CaptureRecords.of(response, digests, "<urn:uuid:1>", "<urn:uuid:2>");
    RecordToWrite record = entries.get(entries.size() - 1).record();
    assertEquals(2, record.block().size());
    assertArrayEquals(head, record.block().get(0));
    assertArrayEquals(body, record.block().get(1));
    assertEquals(Digests.sha1Base32(concat(head, body)), field(record, "WARC-Block-Digest"));
    assertEquals(Digests.sha1Base32(body), field(record, "WARC-Payload-Digest"));
  }

  @Test
  void aBodyOverTheBufferAndAnotherResponsesRecordTakeTheJdksWay() {
    byte[] large = new byte[Sha1Pair.BUFFER_BYTES + 1];
    new Random(3).nextBytes(large);
    FetchResult.Response big = Responses.response("http://example.org/big", 200, List.of(), large, large,
        Optional.empty());
    BodyDigests digests = BodyDigests.of(big);
    assertTrue(digests.headAndBlock(big).isEmpty(), "a body over the buffer: the JDK's two passes");
    assertEquals(Digests.sha1Base32(large), digests.payload().prefixedBase32());

    byte[] body = "<p>one</p>".getBytes(UTF_8);
    FetchResult.Response one = Responses.response("http://example.org/one", 200, List.of(), body, body,
        Optional.empty());
    FetchResult.Response other = Responses.response("http://example.org/other", 200, List.of(),
        "<p>other</p>".getBytes(UTF_8), "<p>other</p>".getBytes(UTF_8), Optional.empty());
    assertTrue(BodyDigests.of(one).headAndBlock(other).isEmpty(), "one response's head is not another's");
  }

  private static String field(RecordToWrite record, String name) {
    return record.fields().stream().filter(f -> f.name().equals(name)).map(RecordToWrite.Field::value)
        .findFirst().orElseThrow();
  }

  private static void check(byte[] head, byte[] body) throws Exception {
    Sha1Pair.Digests digests = Sha1Pair.of(head, body).orElseThrow();
    String lengths = "head " + head.length + ", body " + body.length;
    assertArrayEquals(sha1(concat(head, body)), digests.block().bytes(), () -> "block, " + lengths);
    assertArrayEquals(sha1(body), digests.payload().bytes(), () -> "payload, " + lengths);
    assertEquals(Digests.sha1Base32(body), digests.payload().prefixedBase32());
  }

  private static byte[] sha1(byte[] data) throws Exception {
    return MessageDigest.getInstance("SHA-1").digest(data);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = new byte[a.length + b.length];
    System.arraycopy(a, 0, both, 0, a.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  private static byte[] bytes(Random random, int length) {
    byte[] b = new byte[length];
    random.nextBytes(b);
    return b;
  }

  /** Built means x86-64 Linux, whose /proc/cpuinfo names the CPU's flags. */
  private static boolean cpuHasShaExtensions() throws java.io.IOException {
    for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
      if (line.startsWith("flags")) {
        List<String> flags = List.of(line.substring(line.indexOf(':') + 1).trim().split("\\s+"));
        return flags.contains("sha_ni") && flags.contains("ssse3") && flags.contains("sse4_1");
      }
    }
    return false;
  }
}

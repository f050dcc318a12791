package org.forager.warc;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;
import org.forager.natives.BufferPool;
import org.forager.natives.NativeLibraries;
import org.netpreserve.jwarc.WarcDigest;

/**
 * A response's two SHA-1 digests in one pass: the {@code WARC-Block-Digest} of its HTTP head and body
 * and the {@code WARC-Payload-Digest} of its body, computed side by side by Forager's own native
 * library ({@code src/main/c/sha1_pair.c}, built by {@code bin/native-libraries} into {@code
 * target/native}). With the x86 SHA extensions one SHA-1 waits on its rounds' latency; two messages
 * interleaved take about 58 % of the time of one after the other, and the two digests were 8.5 % of a
 * crawl's CPU (docs/benchmarks.md, session 49).
 *
 * <p>Used only where the library was built, loads, finds the extensions in the CPU and gives the JDK's
 * digests on a self-check; else {@link #of} is empty and the caller digests with the JDK (the same
 * digests). Thread-safe: each call takes a native buffer from a pool.
 */
final class Sha1Pair {

  private static final System.Logger LOG = System.getLogger(Sha1Pair.class.getName());

  /** The library's file ({@link NativeLibraries#find}). */
  static final String LIBRARY = "libforager-sha1.so";

  /** Overrides where the library is looked for (a directory). */
  static final String DIRECTORY_PROPERTY = NativeLibraries.DIRECTORY_PROPERTY;

  /**
   * Every buffer's size, and so the largest head and body digested here: a larger body (rare) is
   * digested by the JDK, so that native memory stays a few buffers, one per thread inside a call (a
   * call does not block: at most the carriers and the platform threads digesting at once).
   */
  static final int BUFFER_BYTES = 256 * 1024;

  private static final int SHA1_BYTES = 20;
  private static final int DIGESTS_BYTES = 2 * SHA1_BYTES;

  private static final BufferPool POOL = new BufferPool(BUFFER_BYTES);

  /** Empty when the native digests are used here, else the one-line reason they are not. */
  private static final Optional<String> UNAVAILABLE = probe();

  /** The two digests of one response. */
  record Digests(WarcDigest block, WarcDigest payload) {}

  private Sha1Pair() {}

  /** Empty when the native digests are used here, else why not. */
  static Optional<String> unavailable() {
    return UNAVAILABLE;
  }

  /** Whether {@link #of} digests a head and body of these lengths here. */
  static boolean digests(int headLength, int bodyLength) {
    return UNAVAILABLE.isEmpty() && (long) headLength + bodyLength + DIGESTS_BYTES <= BUFFER_BYTES;
  }

  /**
   * The SHA-1 of {@code head} then {@code body} (the block) and of {@code body} alone (the payload);
   * empty when they are not digested here ({@link #digests}), or the call failed (a native buffer not
   * allocated): the caller then digests with the JDK.
   */
  static Optional<Digests> of(byte[] head, byte[] body) {
    if (!digests(head.length, body.length)) return Optional.empty();
    try {
      return Optional.of(compute(head, body));
    } catch (VirtualMachineError e) {
      if (!(e instanceof OutOfMemoryError)) throw e;
      return Optional.empty(); // JNA's "Cannot allocate" for a native buffer: the JDK needs none
    }
  }

  private static Digests compute(byte[] head, byte[] body) {
    long total = (long) head.length + body.length;
    Memory buffer = take(total + DIGESTS_BYTES); // the message, then the two digests
    try {
      buffer.write(0, head, 0, head.length);
      buffer.write(head.length, body, 0, body.length);
      Pointer out = buffer.share(total);
      Natives.forager_sha1_pair(buffer, head.length, total, out);
      return new Digests(new WarcDigest("sha1", out.getByteArray(0, SHA1_BYTES)),
          new WarcDigest("sha1", out.getByteArray(SHA1_BYTES, SHA1_BYTES)));
    } finally {
      POOL.give(buffer);
    }
  }

  private static Memory take(long bytes) {
    if (bytes > BUFFER_BYTES) throw new IllegalArgumentException(bytes + " bytes, over " + BUFFER_BYTES);
    return POOL.take();
  }

  private static Optional<String> probe() {
    if (!"amd64".equals(System.getProperty("os.arch"))) {
      return Optional.of("the native SHA-1 pair is built for x86-64 only");
    }
    Optional<Path> library = NativeLibraries.find(LIBRARY);
    if (library.isEmpty()) return Optional.of("the native SHA-1 pair was not built (bin/native-libraries needs gcc)");
    try {
      if (Native.SIZE_T_SIZE != Long.BYTES) return Optional.of("the native SHA-1 pair is used on 64-bit JVMs only");
      Native.register(Natives.class, NativeLibrary.getInstance(library.get().toString()));
      if (Natives.forager_sha1_available() != 1) {
        return Optional.of("this CPU has no SHA extensions: WARC digests by the JDK");
      }
      Optional<String> failed = selfCheck();
      failed.ifPresent(why -> LOG.log(System.Logger.Level.WARNING, "native SHA-1 pair not used: {0}", why));
      return failed;
    } catch (RuntimeException | LinkageError | OutOfMemoryError e) {
      // Not loaded, a function missing, no native buffer: a reason, never an error of the class,
      // whose failure would fail every digest after it.
      return Optional.of("the native SHA-1 pair did not load: " + e);
    } catch (Error e) {
      if (e instanceof VirtualMachineError) throw e;
      return Optional.of("the native SHA-1 pair did not load: " + e); // JNA unable to load itself
    }
  }

  /** Empty if the library's digests equal the JDK's on messages of every length around a block or two. */
  private static Optional<String> selfCheck() {
    Random random = new Random(49);
    for (int headLength : new int[] {0, 1, 55, 64, 130}) {
      for (int bodyLength : new int[] {0, 1, 55, 56, 63, 64, 65, 127, 128, 4_099}) {
        byte[] head = new byte[headLength];
        byte[] body = new byte[bodyLength];
        random.nextBytes(head);
        random.nextBytes(body);
        Digests digests = compute(head, body);
        if (!Arrays.equals(digests.block().bytes(), org.forager.warc.Digests.sha1(head, body).bytes())
            || !Arrays.equals(digests.payload().bytes(), org.forager.warc.Digests.sha1(body).bytes())) {
          return Optional.of("its self-check gave other digests than the JDK's (head " + headLength
              + " bytes, body " + bodyLength + ")");
        }
      }
    }
    return Optional.empty();
  }

  /** The C functions, bound by {@link Native#register}. */
  private static final class Natives {
    static native int forager_sha1_available();

    static native void forager_sha1_pair(Pointer buffer, long from, long total, Pointer out);
  }
}

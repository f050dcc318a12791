package org.forager.warc;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.util.Optional;

/**
 * The system's libdeflate (Eric Biggers' whole-buffer DEFLATE library, Debian/Ubuntu package
 * {@code libdeflate0}), called through JNA's direct mapping: the raw-DEFLATE compressor only, since
 * a record is always one whole buffer. On the crawl's records its level 1 compresses about 2.5
 * times as fast as zlib's level 1, and smaller (docs/benchmarks.md).
 *
 * <p>A compressor is not thread-safe; callers pool them. Loaded once; {@link #load} says why not.
 */
final class LibDeflate {

  /** Empty when libdeflate can be used here, else the one-line reason it cannot. */
  private static final Optional<String> UNAVAILABLE = probe();

  private LibDeflate() {}

  private static Optional<String> probe() {
    if (Native.SIZE_T_SIZE != Long.BYTES) return Optional.of("libdeflate is used on 64-bit systems only");
    try {
      Native.register(Natives.class, library());
      Pointer probe = Natives.libdeflate_alloc_compressor(1);
      if (probe == null) return Optional.of("libdeflate could not allocate a compressor");
      Natives.libdeflate_free_compressor(probe);
      return Optional.empty();
    } catch (LinkageError e) { // no library, an old one without a function, or JNA unable to load itself
      return Optional.of("libdeflate is not installed (Debian/Ubuntu: apt-get install libdeflate0)");
    }
  }

  /**
   * The library by its soname first, which the dynamic loader finds on its own (the runtime package
   * installs {@code libdeflate.so.0} alone, and the launcher stops JNA's own listing of the system's
   * library directories: {@code jna.platform.library.path}); else by JNA's search for "deflate" (a
   * development link, another system's naming).
   */
  private static NativeLibrary library() {
    try {
      return NativeLibrary.getInstance("libdeflate.so.0");
    } catch (UnsatisfiedLinkError e) {
      return NativeLibrary.getInstance("deflate");
    }
  }

  /** Empty when libdeflate can be used, else why not. */
  static Optional<String> unavailable() {
    return UNAVAILABLE;
  }

  /** A new compressor at {@code level} (0 to 12); free it with {@link #free}. */
  static Pointer compressor(int level) {
    if (unavailable().isPresent()) throw new IllegalStateException(unavailable().get());
    Pointer compressor = Natives.libdeflate_alloc_compressor(level);
    if (compressor == null) throw new OutOfMemoryError("libdeflate could not allocate a compressor");
    return compressor;
  }

  /** The most bytes raw DEFLATE of {@code length} bytes can take. */
  static int bound(Pointer compressor, int length) {
    return (int) Natives.libdeflate_deflate_compress_bound(compressor, length);
  }

  /**
   * Compresses {@code inLength} bytes at {@code in} into {@code out} (room for {@code outLength}) as
   * raw DEFLATE; returns the compressed length, 0 when {@code out} was too small (never with
   * {@link #bound}'s size).
   */
  static int compress(Pointer compressor, Pointer in, int inLength, Pointer out, int outLength) {
    return (int) Natives.libdeflate_deflate_compress(compressor, in, inLength, out, outLength);
  }

  static void free(Pointer compressor) {
    Natives.libdeflate_free_compressor(compressor);
  }

  /** The C functions, bound by {@link Native#register} (size_t is 64-bit on the platforms JNA finds it on). */
  private static final class Natives {
    static native Pointer libdeflate_alloc_compressor(int level);

    static native long libdeflate_deflate_compress(Pointer compressor, Pointer in, long inLength, Pointer out,
        long outLength);

    static native long libdeflate_deflate_compress_bound(Pointer compressor, long inLength);

    static native void libdeflate_free_compressor(Pointer compressor);
  }
}

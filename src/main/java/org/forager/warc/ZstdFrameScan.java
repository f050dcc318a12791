package org.forager.warc;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Consumer;

/**
 * Finds how much of a {@code .warc.zst} file is whole: the longest prefix made of complete zstd
 * frames (RFC 8878 section 3.1.1) and skippable frames (section 3.1.2, e.g. a warc-zstd
 * dictionary). A frame counts once its blocks are all there and it decompresses with its content
 * checksum matching; the first torn, corrupt or foreign byte ends the prefix. Stateless.
 *
 * <p>The frame's layout is walked here (headers and block sizes only) because zstd-jni's streams
 * read across frame boundaries and never say where one ended; zstd-jni then checks the frame.
 */
final class ZstdFrameScan {

  private static final int FRAME_MAGIC = 0xFD2FB528;
  private static final int SKIPPABLE_MAGIC = 0x184D2A50; // the low 4 bits are free
  private static final int[] DICT_ID_BYTES = {0, 1, 2, 4};
  private static final int[] CONTENT_SIZE_BYTES = {0, 2, 4, 8};

  private ZstdFrameScan() {}

  /** The length of the longest prefix of {@code in} made of complete, valid frames. */
  static long completeFramesLength(InputStream in) throws IOException {
    return scan(in, span -> { });
  }

  /**
   * Hands {@code spans} each complete data frame (one record each; skippable frames are passed
   * over) of the longest valid prefix, in order, and returns that prefix's length. Offsets count
   * from where {@code in} stands.
   */
  static long scan(InputStream in, Consumer<RecordSpan> spans) throws IOException {
    long complete = 0;
    while (true) {
      Frame frame;
      try {
        frame = frame(in);
      } catch (EOFException | FrameException torn) {
        return complete;
      }
      if (frame.length() == 0) return complete;
      if (!frame.skippable()) spans.accept(new RecordSpan(complete, frame.length()));
      complete += frame.length();
    }
  }

  private record Frame(long length, boolean skippable) {}

  /** Reads one frame; length 0 at a clean end of input; throws on a torn or invalid frame. */
  private static Frame frame(InputStream in) throws IOException {
    ByteArrayOutputStream frame = new ByteArrayOutputStream();
    int first = in.read();
    if (first < 0) return new Frame(0, false);
    frame.write(first);
    copy(in, frame, 3);
    int magic = intLe(frame.toByteArray(), 0);
    if ((magic & 0xFFFFFFF0) == SKIPPABLE_MAGIC) {
      copy(in, frame, 4);
      long size = intLe(frame.toByteArray(), 4) & 0xFFFFFFFFL;
      in.skipNBytes(size);
      return new Frame(8 + size, true);
    }
    if (magic != FRAME_MAGIC) throw new FrameException();
    int descriptor = copy(in, frame, 1);
    boolean singleSegment = (descriptor & 0x20) != 0;
    int sizeFlag = descriptor >>> 6;
    int headerRest = (singleSegment ? 0 : 1) + DICT_ID_BYTES[descriptor & 3]
        + (sizeFlag == 0 && singleSegment ? 1 : CONTENT_SIZE_BYTES[sizeFlag]);
    copy(in, frame, headerRest);
    boolean last;
    do {
      int header = copy(in, frame, 1) | copy(in, frame, 1) << 8 | copy(in, frame, 1) << 16;
      last = (header & 1) != 0;
      int type = (header >>> 1) & 3;
      int size = header >>> 3;
      if (type == 3) throw new FrameException(); // reserved
      copy(in, frame, type == 1 ? 1 : size); // an RLE block stores its one byte
    } while (!last);
    if ((descriptor & 0x04) != 0) copy(in, frame, 4); // content checksum
    verify(frame.toByteArray());
    return new Frame(frame.size(), false);
  }

  /** Decompresses the frame, discarding the output: zstd checks the content checksum at its end. */
  private static void verify(byte[] frame) throws FrameException {
    try (InputStream z = new ZstdInputStreamNoFinalizer(new ByteArrayInputStream(frame))) {
      byte[] sink = new byte[1 << 16];
      while (z.read(sink) >= 0) { }
    } catch (IOException | RuntimeException e) {
      throw new FrameException();
    }
  }

  /** Copies {@code n} bytes; returns the last one (for single-byte reads). */
  private static int copy(InputStream in, ByteArrayOutputStream out, int n) throws IOException {
    byte[] bytes = in.readNBytes(n);
    if (bytes.length < n) throw new EOFException();
    out.write(bytes, 0, n);
    return n == 0 ? 0 : bytes[n - 1] & 0xFF;
  }

  private static int intLe(byte[] b, int at) {
    return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8 | (b[at + 2] & 0xFF) << 16 | (b[at + 3] & 0xFF) << 24;
  }

  /** Not a valid frame: where the whole prefix ends. */
  private static final class FrameException extends IOException {
    private static final long serialVersionUID = 1L;
  }
}

package org.forager.warc;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Compresses a serialized record into one complete zstd frame (RFC 8878), the unit of the IIPC
 * warc-zstd proposal ({@code .warc.zst}: "each record is one frame"), in memory, at a chosen level.
 * Thread-safe.
 *
 * <p>No dictionary: a file of plain frames is also a valid zstd stream, so {@code zstd -d} turns
 * it into a plain WARC any reader takes; a dictionary would shrink small records further but
 * would tie every reader to the proposal's dictionary frame. Each frame carries its content size
 * and a content checksum (XXH64), which {@link WarcRepair} uses to tell a whole frame from a torn
 * one. Levels up to 19 keep the window at or under 8 MiB, what the proposal asks readers to
 * handle.
 *
 * <p>Native contexts are pooled, as {@link GzipMembers} pools deflaters: a context holds zstd's
 * tables, costly to set up per record (a page's two records took 37 % longer at level 1 with a
 * new context each, docs/benchmarks.md).
 */
final class ZstdFrames implements RecordCodec {

  private final int level;
  private final ConcurrentLinkedQueue<ZstdCompressCtx> pool = new ConcurrentLinkedQueue<>();

  ZstdFrames(int level) {
    this.level = level;
  }

  @Override
  public byte[] compress(byte[] record, int length) {
    ZstdCompressCtx ctx = pool.poll();
    if (ctx == null) ctx = newContext();
    try {
      // From the serialization buffer as it is (no copy of the record cut to its length).
      byte[] frame = new byte[(int) Zstd.compressBound(length)];
      return Arrays.copyOf(frame, ctx.compressByteArray(frame, 0, frame.length, record, 0, length));
    } finally {
      pool.offer(ctx);
    }
  }

  private ZstdCompressCtx newContext() {
    ZstdCompressCtx ctx = new ZstdCompressCtx();
    ctx.setLevel(level);
    ctx.setChecksum(true);
    ctx.setContentSize(true);
    return ctx;
  }
}

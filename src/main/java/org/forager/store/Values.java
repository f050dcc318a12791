package org.forager.store;

import java.util.Optional;
import java.util.OptionalLong;
import org.forager.fetch.Outcome;
import org.forager.url.Origin;

/**
 * The binary encoding of the store's values. Every value starts with a format version byte so
 * that a later version can read old data; the URL itself is never repeated in a value because it
 * is in the key. Stateless.
 */
final class Values {

  /**
   * Version 2 added a crawl record's duplicate-of URL and simhash, version 3 a URL's priority,
   * inlinks and hops (in its record and its due entry) and an origin state's run progress; older values are still read, a URL without
   * them as priority 1 (first: what the due order gave every new URL then), no inlinks, no hops.
   */
  private static final int VERSION = 3;
  /** The quantized priority of a URL stored before version 3. */
  static final int OLD_PRIORITY = 0xFFFF;

  private Values() {}

  /** The validators and crawl count a due-index entry carries, so a due scan reads nothing else. */
  record DueEntry(int fetchCount, Optional<String> etag, Optional<String> lastModified, int priority, int hops) {

    /** The same entry after a crawl: a new count and validators, rank kept. */
    DueEntry crawled(int fetchCount, Optional<String> etag, Optional<String> lastModified) {
      return new DueEntry(fetchCount, etag, lastModified, priority, hops);
    }

    /** The entry of a URL without validators: never crawled, or none kept. */
    static DueEntry none(UrlRecord url) {
      return new DueEntry(url.fetchCount(), Optional.empty(), Optional.empty(), Ranking.quantize(url.priority()),
          url.hops());
    }

    /** This entry with the URL record's rank (after inlinks raised its priority). */
    DueEntry rankedAs(UrlRecord url) {
      return new DueEntry(fetchCount, etag, lastModified, Ranking.quantize(url.priority()), url.hops());
    }
  }

  static byte[] encodeUrl(UrlRecord url) {
    ByteWriter out = new ByteWriter(128).writeByte(VERSION);
    out.writeVarLong(url.depth())
        .writeOptionalString(url.discoveredFrom())
        .writeInstant(url.discoveredAt())
        .writeVarLong(url.fetchCount())
        .writeInstant(url.nextFetchAt())
        .writeVarLong(Ranking.quantize(url.priority()))
        .writeVarLong(url.inlinks())
        .writeVarLong(url.hops())
        .writeBoolean(url.lastCrawl().isPresent());
    url.lastCrawl().ifPresent(crawl -> writeCrawl(out, crawl));
    return out.toByteArray();
  }

  static UrlRecord decodeUrl(String url, byte[] value) {
    ByteReader in = new ByteReader(value);
    int version = version(in);
    int depth = in.readVarInt();
    Optional<String> discoveredFrom = in.readOptionalString();
    var discoveredAt = in.readInstant();
    int fetchCount = in.readVarInt();
    var nextFetchAt = in.readInstant();
    int priority = version >= 3 ? in.readVarInt() : OLD_PRIORITY;
    int inlinks = version >= 3 ? in.readVarInt() : 0;
    int hops = version >= 3 ? in.readVarInt() : 0;
    Optional<CrawlRecord> lastCrawl =
        in.readBoolean() ? Optional.of(readCrawl(url, in, version)) : Optional.empty();
    return new UrlRecord(url, depth, discoveredFrom, discoveredAt, fetchCount, lastCrawl, nextFetchAt,
        Ranking.dequantize(priority), inlinks, hops);
  }

  static byte[] encodeCrawl(CrawlRecord crawl) {
    ByteWriter out = new ByteWriter(128).writeByte(VERSION);
    writeCrawl(out, crawl);
    return out.toByteArray();
  }

  static CrawlRecord decodeCrawl(String url, byte[] value) {
    ByteReader in = new ByteReader(value);
    return readCrawl(url, in, version(in));
  }

  static byte[] encodeDue(DueEntry due) {
    return new ByteWriter(32)
        .writeByte(VERSION)
        .writeVarLong(due.fetchCount())
        .writeOptionalString(due.etag())
        .writeOptionalString(due.lastModified())
        .writeVarLong(due.priority())
        .writeVarLong(due.hops())
        .toByteArray();
  }

  static DueEntry decodeDue(byte[] value) {
    ByteReader in = new ByteReader(value);
    int version = version(in);
    int fetchCount = in.readVarInt();
    Optional<String> etag = in.readOptionalString();
    Optional<String> lastModified = in.readOptionalString();
    return version >= 3
        ? new DueEntry(fetchCount, etag, lastModified, in.readVarInt(), in.readVarInt())
        : new DueEntry(fetchCount, etag, lastModified, OLD_PRIORITY, 0);
  }

  static byte[] encodeOrigin(Origin origin) {
    ByteWriter out = new ByteWriter(64).writeByte(VERSION);
    writeOrigin(out, origin);
    return out.toByteArray();
  }

  static Origin decodeOrigin(byte[] value) {
    return readOrigin(versioned(value));
  }

  static byte[] encodeOriginState(OriginState state) {
    ByteWriter out = new ByteWriter(256).writeByte(VERSION);
    writeOrigin(out, state.origin());
    out.writeSignedVarLong(state.delayMillis())
        .writeSignedVarLong(state.patience())
        .writeBoolean(state.robotsTxt().isPresent());
    state.robotsTxt().ifPresent(robots -> out.writeVarLong(robots.status())
        .writeByteArray(robots.body())
        .writeInstant(robots.fetchedAt())
        .writeInstant(robots.expiresAt()));
    out.writeBoolean(state.run().isPresent());
    state.run().ifPresent(run -> {
      out.writeInstant(run.runStarted())
          .writeVarLong(run.pagesFetched())
          .writeByte((run.sitemapsRead() ? 1 : 0) | (run.givenUp() ? 2 : 0) | (run.sitemapsReadAt().isPresent() ? 4 : 0));
      // Last, behind a flag: a Forager from before it reads the rest as before and ignores it.
      run.sitemapsReadAt().ifPresent(out::writeInstant);
    });
    // Fields appended after the run's, each behind a tag byte (a Forager from before stops reading before
    // them): 1, the end of the wait the site asked for.
    state.waitUntil().ifPresent(until -> out.writeByte(WAIT_UNTIL_TAG).writeInstant(until));
    return out.toByteArray();
  }

  /** The tag of {@link OriginState#waitUntil} after an origin state's run progress. */
  private static final int WAIT_UNTIL_TAG = 1;

  static OriginState decodeOriginState(byte[] value) {
    ByteReader in = new ByteReader(value);
    int version = version(in);
    Origin origin = readOrigin(in);
    long delayMillis = in.readSignedVarLong();
    int patience = (int) in.readSignedVarLong();
    Optional<OriginState.RobotsTxt> robots = Optional.empty();
    if (in.readBoolean()) {
      robots = Optional.of(new OriginState.RobotsTxt(
          in.readVarInt(), in.readByteArray(), in.readInstant(), in.readInstant()));
    }
    Optional<OriginState.RunProgress> run = Optional.empty();
    if (version >= 3 && in.readBoolean()) {
      var started = in.readInstant();
      long pages = in.readVarLong();
      int flags = in.readByte();
      Optional<java.time.Instant> sitemapsReadAt = (flags & 4) != 0 ? Optional.of(in.readInstant()) : Optional.empty();
      run = Optional.of(new OriginState.RunProgress(started, pages, (flags & 1) != 0, (flags & 2) != 0, sitemapsReadAt));
    }
    Optional<java.time.Instant> waitUntil = Optional.empty();
    if (version >= 3 && !in.atEnd() && in.readByte() == WAIT_UNTIL_TAG) waitUntil = Optional.of(in.readInstant());
    return new OriginState(origin, robots, delayMillis, patience, run, waitUntil);
  }

  /** A crawl setting's value: the version byte, then the UTF-8 bytes (already checked). */
  static byte[] encodeSetting(byte[] utf8) {
    return new ByteWriter(utf8.length + 1).writeByte(VERSION).writeBytes(utf8).toByteArray();
  }

  static String decodeSetting(byte[] value) {
    return versioned(value).readRestAsString();
  }

  /** A block's value (its host is the key): the version byte, when, who. */
  static byte[] encodeBlock(Block block) {
    return new ByteWriter(24).writeByte(VERSION).writeInstant(block.since()).writeString(block.by()).toByteArray();
  }

  static Block decodeBlock(String host, byte[] value) {
    ByteReader in = versioned(value);
    return new Block(host, in.readInstant(), in.readString());
  }

  private static void writeCrawl(ByteWriter out, CrawlRecord crawl) {
    // The outcome by name, not ordinal: the enum may be reordered, the names are the contract.
    out.writeInstant(crawl.fetchedAt())
        .writeString(crawl.outcome().name())
        .writeVarLong(crawl.httpStatus())
        .writeSignedVarLong(crawl.durationMillis())
        .writeOptionalString(crawl.contentType())
        .writeSignedVarLong(crawl.contentLength())
        .writeOptionalString(crawl.digest())
        .writeOptionalString(crawl.redirectTo())
        .writeOptionalString(crawl.canonical())
        .writeByte((crawl.noindex() ? 1 : 0) | (crawl.nofollow() ? 2 : 0))
        .writeOptionalString(crawl.etag())
        .writeOptionalString(crawl.lastModified())
        .writeInstant(crawl.nextFetchAt())
        .writeOptionalString(crawl.duplicateOf())
        .writeBoolean(crawl.simhash().isPresent());
    // Fixed width: a simhash is uniformly spread over 64 bits, a varint would be longer.
    crawl.simhash().ifPresent(out::writeLongBigEndian);
  }

  private static CrawlRecord readCrawl(String url, ByteReader in, int version) {
    var fetchedAt = in.readInstant();
    Outcome outcome = outcome(in.readString());
    int httpStatus = in.readVarInt();
    long durationMillis = in.readSignedVarLong();
    Optional<String> contentType = in.readOptionalString();
    long contentLength = in.readSignedVarLong();
    Optional<String> digest = in.readOptionalString();
    Optional<String> redirectTo = in.readOptionalString();
    Optional<String> canonical = in.readOptionalString();
    int flags = in.readByte();
    Optional<String> etag = in.readOptionalString();
    Optional<String> lastModified = in.readOptionalString();
    var nextFetchAt = in.readInstant();
    Optional<String> duplicateOf = Optional.empty();
    OptionalLong simhash = OptionalLong.empty();
    if (version >= 2) {
      duplicateOf = in.readOptionalString();
      if (in.readBoolean()) simhash = OptionalLong.of(in.readLongBigEndian());
    }
    return new CrawlRecord(url, fetchedAt, outcome, httpStatus, durationMillis, contentType,
        contentLength, digest, redirectTo, canonical, (flags & 1) != 0, (flags & 2) != 0, etag,
        lastModified, nextFetchAt, duplicateOf, simhash);
  }

  private static void writeOrigin(ByteWriter out, Origin origin) {
    out.writeString(origin.scheme()).writeString(origin.host()).writeSignedVarLong(origin.port());
  }

  private static Origin readOrigin(ByteReader in) {
    return new Origin(in.readString(), in.readString(), (int) in.readSignedVarLong());
  }

  private static Outcome outcome(String name) {
    try {
      return Outcome.valueOf(name);
    } catch (IllegalArgumentException e) {
      throw new StoreException("corrupt value in the crawl store: unknown outcome " + name);
    }
  }

  private static ByteReader versioned(byte[] value) {
    ByteReader in = new ByteReader(value);
    version(in);
    return in;
  }

  /** Reads the version byte (see {@link #VERSION} for what each added). */
  private static int version(ByteReader in) {
    int version = in.readByte();
    if (version < 1 || version > VERSION) {
      throw new StoreException("crawl store value has format version " + version
          + ", this Forager reads versions 1 to " + VERSION);
    }
    return version;
  }
}

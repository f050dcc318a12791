package org.forager.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.forager.io.IoFailures;
import org.forager.io.ReplacedFile;
import org.forager.warc.RecordCompression;
import org.forager.warc.WarcIndexes;

/**
 * Packages a crawl's finished WARC files as one WACZ 1.1.1 file (Webrecorder's "Web Archive
 * Collection Zipped", which ReplayWeb.page and pywb open): {@code archive/} the {@code .warc.gz}
 * files as they are, stored; {@code indexes/index.cdx} the merged CDXJ index of all of them (a 304's revisit without its
 * status, {@link IndexMerge#forReplay});
 * {@code pages/pages.jsonl} the HTML pages ({@link WaczPages}); {@code datapackage.json} each
 * file's path, size and SHA-256, with {@code wacz_version}, {@code created}, {@code software} and
 * the first page as {@code mainPageUrl}; {@code datapackage-digest.json} the SHA-256 of
 * {@code datapackage.json}.
 *
 * <p>Files still {@code .open} are left out, so a package can be made while a crawl runs. A WARC
 * file without its index gets one first ({@link WarcIndexes#ensure}). The package is written to a
 * temporary file beside the output and renamed into place: a file at the output path is always a
 * whole package. Memory stays flat: WARC files are streamed, indexes merged line by line.
 */
public final class WaczExporter {

  /** The version of the WACZ specification the package follows. */
  public static final String WACZ_VERSION = "1.1.1";

  /** What went into a package. */
  public record Summary(int warcFiles, long captures, long pages, long bytes) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private WaczExporter() {}

  /**
   * Writes the package of the WARC files in {@code warcDir} (their indexes in {@code indexDir}) to
   * {@code output}, replacing any file there.
   *
   * @param software the {@code software} field, e.g. {@code Forager/0.1.0}
   * @param created the {@code created} field and the time of every ZIP entry
   * @throws IllegalArgumentException with a one-line reason when there is nothing WACZ can hold:
   *     no finished {@code .warc.gz} file, or zstd-compressed ones (WACZ 1.1.1 takes {@code .warc}
   *     and {@code .warc.gz} only)
   * @throws UncheckedIOException naming the file, when a file cannot be read or written
   */
  public static Summary export(Path warcDir, Path indexDir, Path output, String software, Instant created) {
    List<Path> warcs = finishedWarcFiles(warcDir);
    try {
      return ReplacedFile.write(output, temp -> {
        Counts counts = write(warcs, indexDir, temp, software, created);
        return new Summary(warcs.size(), counts.captures(), counts.pages(), Files.size(temp));
      });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + output + ": " + IoFailures.reason(e, output), e);
    }
  }

  private record Counts(long captures, long pages) {}

  private static Counts write(List<Path> warcs, Path indexDir, Path zipFile, String software, Instant created)
      throws IOException {
    List<Path> indexes = new ArrayList<>();
    for (Path warc : warcs) indexes.add(WarcIndexes.ensure(indexDir, warc));
    long[] captures = {0};
    WaczPages[] pages = {null};
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(zipFile), 1 << 16);
        WaczEntries zip = new WaczEntries(out, created)) {
      for (Path warc : warcs) zip.addStored("archive/" + warc.getFileName(), warc);
      zip.addDeflated("indexes/index.cdx", o -> captures[0] = IndexMerge.merge(indexes, o));
      zip.addDeflated("pages/pages.jsonl", o -> {
        pages[0] = new WaczPages(o);
        for (int i = 0; i < warcs.size(); i++) pages[0].addFrom(warcs.get(i), indexes.get(i));
      });
      byte[] datapackage = datapackage(zip.resources(), pages[0], software, created);
      WaczEntries.Resource manifest = zip.addDeflated("datapackage.json", o -> o.write(datapackage));
      zip.addDeflated("datapackage-digest.json", o -> o.write(digest(manifest)));
    }
    return new Counts(captures[0], pages[0].count());
  }

  /** The finished {@code .warc.gz} files, by name (their creation order). */
  private static List<Path> finishedWarcFiles(Path warcDir) {
    List<Path> gzip = new ArrayList<>();
    List<Path> zstd = new ArrayList<>();
    List<Path> open = new ArrayList<>();
    if (Files.isDirectory(warcDir)) {
      try (Stream<Path> files = Files.list(warcDir)) {
        for (Path file : files.sorted().toList()) {
          var format = WarcIndexes.formatOf(file.getFileName().toString());
          if (file.getFileName().toString().endsWith(".open")) open.add(file);
          if (format.isEmpty()) continue;
          (format.get() == RecordCompression.Format.GZIP ? gzip : zstd).add(file);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list " + warcDir + ": " + IoFailures.reason(e, warcDir), e);
      }
    }
    if (!zstd.isEmpty()) {
      throw new IllegalArgumentException(warcDir + " holds " + zstd.size() + " zstd-compressed WARC file(s) ("
          + zstd.get(0).getFileName() + (zstd.size() > 1 ? ", …" : "") + "), which a WACZ " + WACZ_VERSION
          + " cannot hold (.warc.gz only): crawl with warc.compression: gzip to export a WACZ");
    }
    if (gzip.isEmpty()) {
      throw new IllegalArgumentException(warcDir + " holds no finished WARC file to package" + (open.isEmpty() ? ""
          : ": " + open.get(0).getFileName() + " is still being written (a crawl finishes a file at"
              + " warc.max_file_size or when it stops; a killed crawl's, at its next run)"));
    }
    return gzip;
  }

  private static byte[] datapackage(List<WaczEntries.Resource> resources, WaczPages pages, String software,
      Instant created) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("profile", "data-package");
    root.put("wacz_version", WACZ_VERSION);
    root.put("title", "Forager crawl");
    root.put("created", created.toString());
    root.put("software", software);
    pages.first().ifPresent(page -> {
      root.put("mainPageUrl", page.url());
      root.put("mainPageDate", page.ts().toString());
    });
    ArrayNode list = root.putArray("resources");
    for (WaczEntries.Resource r : resources) {
      list.addObject().put("name", r.name()).put("path", r.path()).put("hash", r.hash()).put("bytes", r.bytes());
    }
    return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
  }

  private static byte[] digest(WaczEntries.Resource manifest) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("path", manifest.path());
    root.put("hash", manifest.hash());
    return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
  }
}

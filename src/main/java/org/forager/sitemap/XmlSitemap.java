package org.forager.sitemap;

import java.io.InputStream;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalDouble;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.forager.sitemap.SitemapResult.Entry;

/**
 * Reads an XML sitemap, a {@code <urlset>} or a {@code <sitemapindex>} (sitemaps.org protocol 0.9),
 * with the JDK's StAX parser as a stream: each entry goes to its {@link Batcher} when its closing tag
 * is read, and reading stops at the first entry past the cap, which is never built. Elements are
 * matched by local name in any namespace (crawler-commons' lenient mode did the same); extension
 * elements (images, news, ...) are skipped. One instance reads one file; not thread-safe.
 *
 * <p>The stream must come through an {@link XmlGuard}: DTDs are also off in the parser, but the
 * guard is what refuses them, and what bounds the markup the parser holds whole.
 */
final class XmlSitemap {

  /** Deeper elements stop the read: the parser keeps a stack of open elements. */
  static final int MAX_DEPTH = 16;
  /** Longer {@code <priority>} texts are not a priority (whitespace around one included). */
  private static final int MAX_PRIORITY_LENGTH = 32;

  private final Instant now;
  private final Batcher<Entry> pages;
  private final Batcher<String> sitemaps;
  private boolean index; // whether the root is <sitemapindex>
  private int depth;
  private boolean inEntry; // in a <url> or <sitemap>
  private final StringBuilder loc = new StringBuilder();
  private final StringBuilder lastmod = new StringBuilder();
  private final StringBuilder priority = new StringBuilder();
  private StringBuilder text; // the field being read, if any
  private int textLimit;
  private String cut;

  XmlSitemap(Instant now, Batcher<Entry> pages, Batcher<String> sitemaps) {
    this.now = now;
    this.pages = pages;
    this.sitemaps = sitemaps;
  }

  SitemapResult read(InputStream in) {
    XMLStreamReader reader;
    try {
      reader = factory().createXMLStreamReader(in);
    } catch (XMLStreamException | RuntimeException e) {
      return new SitemapResult.Failure(Stop.reason(e));
    }
    try {
      while (cut == null) {
        int event;
        // Only the parser's calls are caught: whatever the caller's batch consumer throws is not a
        // broken sitemap and goes up as it is.
        try {
          if (!reader.hasNext()) break;
          event = reader.next();
        } catch (XMLStreamException | RuntimeException e) {
          cut = Stop.reason(e);
          break;
        }
        on(event, reader);
      }
    } finally {
      close(reader);
    }
    pages.flush();
    sitemaps.flush();
    int count = index ? sitemaps.count() : pages.count();
    // Broken or refused before any entry: not a sitemap. After some: they went on, the rest is cut.
    if (count == 0 && cut != null) return new SitemapResult.Failure(cut);
    return index ? new SitemapResult.Index(count, Optional.ofNullable(cut))
        : new SitemapResult.UrlSet(count, Optional.ofNullable(cut));
  }

  private void on(int event, XMLStreamReader reader) {
    switch (event) {
      case XMLStreamConstants.START_ELEMENT -> {
        depth++;
        String name = reader.getLocalName();
        if (depth == 1) {
          if (!name.equals("urlset") && !name.equals("sitemapindex")) {
            cut = "not a sitemap: root element <" + (name.length() > 32 ? name.substring(0, 32) + "..." : name) + ">";
          }
          index = name.equals("sitemapindex");
        } else if (depth > MAX_DEPTH) {
          cut = "elements nested deeper than " + MAX_DEPTH;
        } else if (depth == 2) {
          inEntry = name.equals(index ? "sitemap" : "url");
          loc.setLength(0);
          lastmod.setLength(0);
          priority.setLength(0);
        } else if (depth == 3 && inEntry) {
          startText(name);
        }
      }
      case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
        if (text != null) {
          int length = Math.min(reader.getTextLength(), textLimit - text.length());
          if (length > 0) text.append(reader.getTextCharacters(), reader.getTextStart(), length);
        }
      }
      case XMLStreamConstants.END_ELEMENT -> {
        if (depth == 3) text = null;
        if (depth == 2 && inEntry) {
          inEntry = false;
          entry();
        }
        depth--;
      }
      default -> { } // comments, processing instructions: nothing to read
    }
  }

  private void startText(String name) {
    if (name.equals("loc")) {
      text = loc;
      textLimit = SitemapReader.MAX_URL_LENGTH + 1; // one more says it was too long
    } else if (name.equals("lastmod")) {
      text = lastmod;
      textLimit = Lastmod.MAX_LENGTH + 1;
    } else if (name.equals("priority")) {
      text = priority;
      textLimit = MAX_PRIORITY_LENGTH;
    }
  }

  private void entry() {
    Optional<String> url = SitemapReader.absoluteUrl(loc);
    if (url.isEmpty()) return;
    Batcher<?> batcher = index ? sitemaps : pages;
    if (!batcher.hasRoom()) {
      cut = "more than " + SitemapReader.MAX_URLS + (index ? " sitemaps" : " URLs");
      return;
    }
    if (index) sitemaps.add(url.get());
    else pages.add(new Entry(url.get(), Lastmod.parse(lastmod, now), priority(priority)));
  }

  /** A {@code <priority>}: a decimal from 0.0 to 1.0 (sitemaps.org); anything else is as if absent. */
  static OptionalDouble priority(CharSequence text) {
    String value = text.toString().strip();
    if (value.isEmpty() || value.length() >= MAX_PRIORITY_LENGTH || !value.matches("[0-9]*\\.?[0-9]+|[0-9]+\\.")) {
      return OptionalDouble.empty();
    }
    double priority = Double.parseDouble(value);
    return priority <= 1.0 ? OptionalDouble.of(priority) : OptionalDouble.empty();
  }

  private static void close(XMLStreamReader reader) {
    try {
      reader.close(); // frees the parser's buffers; the stream is the caller's
    } catch (XMLStreamException | RuntimeException e) {
      // nothing to free then
    }
  }

  /** The JDK's own StAX parser (not whichever a dependency brings), with DTDs and external entities off. */
  private static XMLInputFactory factory() {
    XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    factory.setProperty(XMLInputFactory.IS_COALESCING, false); // text in pieces, never held whole
    // JDK 24+ count the predefined references (&amp;) of the document against entity size limits
    // meant for DTD entities: a sitemap of 50,000 URLs with query strings failed half-way. Without a
    // DTD there are no other entities, and the caps here bound the document.
    factory.setProperty("jdk.xml.maxGeneralEntitySizeLimit", 0);
    factory.setProperty("jdk.xml.totalEntitySizeLimit", 0);
    factory.setXMLResolver((publicId, systemId, base, namespace) -> {
      throw new XMLStreamException("external resource refused: " + systemId);
    });
    return factory;
  }
}

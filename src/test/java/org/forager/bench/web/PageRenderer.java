package org.forager.bench.web;

import java.util.Arrays;

/**
 * Writes the HTML of page n of host h: a function of (h, n) and the {@link WebConfig} only. About
 * 30 KB of UTF-8: a head with title and meta tags, a nav, paragraphs of pseudo-text with headings
 * and a figure, an aside and a footer, and 40 {@code <a href>} links:
 *
 * <ul>
 *   <li>nav: 5 root-relative links to pages 0..4 (modulo P);
 *   <li>24 in-text links to pseudo-random pages of the same host, written root-relative, absolute
 *       ({@code http://127.1.x.y:PORT/p/k.html}), document-relative, with dot segments or with a
 *       fragment;
 *   <li>4 cross-host links to pseudo-random pages of other benchmark hosts (absolute);
 *   <li>2 links to {@code .jpg} and 1 to a {@code .pdf} (skipped extensions; those URLs are 404);
 *   <li>2 links under {@code /private/}, which robots.txt disallows (also 404);
 *   <li>previous (n-1) and next (n+1 modulo P) pages, so every page is reachable from page 0
 *       through same-host links.
 * </ul>
 *
 * <p>Cheap: everything is copied from precomputed byte fragments ({@link TextPool}); the only
 * per-page work is a few dozen small copies and number formats. Immutable; safe to share.
 */
final class PageRenderer {

  /** Upper bound of a page body, for callers sizing buffers. */
  static final int MAX_BODY = 40_000;
  /** Paragraphs are added until the body reaches this size; the footer follows. */
  private static final int FILL = 28_000;
  static final int SAME_HOST_TEXT_LINKS = 24;
  static final int CROSS_HOST_LINKS = 4;

  private static final byte[] HEAD_1 = ByteSink.utf8(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
  private static final byte[] TITLE_SITE = ByteSink.utf8(" \u2013 site ");
  private static final byte[] TITLE_PAGE = ByteSink.utf8(", page ");
  private static final byte[] HEAD_2 = ByteSink.utf8("</title>\n<meta name=\"description\" content=\"");
  private static final byte[] HEAD_3 = ByteSink.utf8("\">\n"
      + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      + "<meta name=\"generator\" content=\"Forager synthetic web\">\n"
      + "</head>\n<body>\n<header>\n<p class=\"site\">Site ");
  private static final byte[] NAV_1 = ByteSink.utf8("</p>\n<nav>\n<ul>\n");
  private static final byte[] LI_A = ByteSink.utf8("<li><a href=\"");
  private static final byte[] HREF_END = ByteSink.utf8("\">");
  private static final byte[] A_LI_END = ByteSink.utf8("</a></li>\n");
  private static final byte[] NAV_2 = ByteSink.utf8("</ul>\n</nav>\n</header>\n<main>\n<article>\n<h1>");
  private static final byte[] H1_END = ByteSink.utf8("</h1>\n");
  private static final byte[] H2 = ByteSink.utf8("<h2>");
  private static final byte[] H2_END = ByteSink.utf8("</h2>\n");
  private static final byte[] P = ByteSink.utf8("<p>");
  private static final byte[] A_IN_TEXT = ByteSink.utf8(" <a href=\"");
  private static final byte[] A_END = ByteSink.utf8("</a>");
  private static final byte[] P_END = ByteSink.utf8("</p>\n");
  private static final byte[] FIGURE_1 = ByteSink.utf8("<figure><img src=\"/media/");
  private static final byte[] FIGURE_2 = ByteSink.utf8(".jpg\" alt=\"");
  private static final byte[] FIGURE_3 = ByteSink.utf8("\" width=\"640\" height=\"480\"><figcaption>");
  private static final byte[] FIGURE_4 = ByteSink.utf8("</figcaption></figure>\n");
  private static final byte[] ASIDE = ByteSink.utf8(
      "</article>\n<aside>\n<h2>Elsewhere</h2>\n<ul>\n");
  private static final byte[] FOOTER = ByteSink.utf8("</ul>\n</aside>\n</main>\n<footer>\n<ul>\n");
  private static final byte[] PHOTO = ByteSink.utf8("<li><a href=\"/media/");
  private static final byte[] JPG = ByteSink.utf8(".jpg\">Photo</a></li>\n");
  private static final byte[] PDF_1 = ByteSink.utf8("<li><a href=\"/docs/report-");
  private static final byte[] PDF_2 = ByteSink.utf8(".pdf\">Report (PDF)</a></li>\n");
  private static final byte[] ACCOUNT_1 = ByteSink.utf8("<li><a href=\"/private/account/");
  private static final byte[] ACCOUNT_2 = ByteSink.utf8(".html\">Your account</a></li>\n");
  private static final byte[] DRAFTS_1 = ByteSink.utf8("<li><a href=\"/private/drafts/");
  private static final byte[] DRAFTS_2 = ByteSink.utf8(".html\">Drafts</a></li>\n");
  private static final byte[] PREVIOUS = ByteSink.utf8("\">Previous page</a></li>\n");
  private static final byte[] NEXT = ByteSink.utf8("\">Next page</a></li>\n");
  private static final byte[] END_1 = ByteSink.utf8("</ul>\n<p>\u00a9 2026 Site ");
  private static final byte[] END_2 = ByteSink.utf8("</p>\n</footer>\n</body>\n</html>\n");
  private static final byte[] P_PREFIX = ByteSink.utf8("/p/");
  private static final byte[] HTML = ByteSink.utf8(".html");
  private static final byte[] DOT_SLASH = ByteSink.utf8("./");
  private static final byte[] DOT_DOT_SLASH = ByteSink.utf8("../");
  private static final byte[] P_RELATIVE = ByteSink.utf8("p/");
  private static final byte[] FRAGMENT = ByteSink.utf8("#s");

  private final WebConfig config;
  private final TextPool text = TextPool.get();
  /** {@code http://127.1.x.y:PORT} per host. */
  private final byte[][] origins;

  PageRenderer(WebConfig config) {
    this.config = config;
    origins = new byte[config.hosts()][];
    for (int h = 0; h < config.hosts(); h++) origins[h] = ByteSink.utf8(config.origin(h));
  }

  /** The body of page {@code page} of host {@code host}, as a new array. */
  byte[] page(int host, int page) {
    byte[] buf = new byte[MAX_BODY];
    int end = render(host, page, buf, 0);
    return Arrays.copyOf(buf, end);
  }

  /**
   * Writes the body of page {@code page} of host {@code host} into {@code buf} from {@code offset},
   * which must have {@link #MAX_BODY} bytes free; returns the end offset.
   */
  int render(int host, int page, byte[] buf, int offset) {
    int pages = config.pages();
    Mix mix = Mix.of(host, page);
    ByteSink out = new ByteSink(buf, offset);
    out.put(HEAD_1);
    int title = mix.nextInt(TextPool.WORDS - 3);
    words(out, title, 3);
    out.put(TITLE_SITE).putInt(host).put(TITLE_PAGE).putInt(page).put(HEAD_2);
    for (int i = 0; i < 20; i++) {
      if (i > 0) out.put((byte) ' ');
      out.put(text.word(mix.nextInt(TextPool.WORDS)));
    }
    out.put(HEAD_3).putInt(host).put(NAV_1);
    for (int k = 0; k < 5; k++) {
      out.put(LI_A);
      rootRelative(out, k % pages);
      out.put(HREF_END).put(text.word((host + k) % TextPool.WORDS)).put(A_LI_END);
    }
    out.put(NAV_2);
    words(out, title, 3);
    out.put(H1_END);

    int paragraph = 0;
    while (paragraph < SAME_HOST_TEXT_LINKS || out.pos - offset < FILL) {
      if (paragraph > 0 && paragraph % 4 == 0) {
        out.put(H2);
        words(out, mix.nextInt(TextPool.WORDS - 3), 3);
        out.put(H2_END);
      }
      int p = mix.nextInt(TextPool.PARAGRAPHS);
      out.put(P).put(text.head(p));
      if (paragraph < SAME_HOST_TEXT_LINKS) {
        out.put(A_IN_TEXT);
        sameHostLink(out, host, page, mix.nextInt(pages), mix.nextInt(20), paragraph);
        out.put(HREF_END);
        words(out, mix.nextInt(TextPool.WORDS - 2), 2);
        out.put(A_END);
      }
      out.put(text.tail(p)).put(P_END);
      if (paragraph == 2) {
        out.put(FIGURE_1).putInt(host).put((byte) '-').putInt(page).put(FIGURE_2);
        words(out, mix.nextInt(TextPool.WORDS - 2), 2);
        out.put(FIGURE_3);
        words(out, mix.nextInt(TextPool.WORDS - 4), 4);
        out.put(FIGURE_4);
      }
      paragraph++;
    }

    out.put(ASIDE);
    int hosts = config.hosts();
    for (int i = 0; i < CROSS_HOST_LINKS; i++) {
      int other = mix.nextInt(hosts);
      if (other == host && hosts > 1) other = (other + 1) % hosts;
      out.put(LI_A).put(origins[other]);
      rootRelative(out, mix.nextInt(pages));
      out.put(HREF_END);
      words(out, mix.nextInt(TextPool.WORDS - 2), 2);
      out.put(A_LI_END);
    }
    out.put(FOOTER);
    out.put(PHOTO).putInt(page).put((byte) '-').putInt(1).put(JPG);
    out.put(PHOTO).putInt(page).put((byte) '-').putInt(2).put(JPG);
    out.put(PDF_1).putInt(page).put(PDF_2);
    out.put(ACCOUNT_1).putInt(page).put(ACCOUNT_2);
    out.put(DRAFTS_1).putInt(page).put((byte) '-').putInt(mix.nextInt(1000)).put(DRAFTS_2);
    out.put(LI_A);
    rootRelative(out, (page + pages - 1) % pages);
    out.put(PREVIOUS).put(LI_A);
    documentRelative(out, page, (page + 1) % pages);
    out.put(NEXT);
    out.put(END_1).putInt(host).put(END_2);
    return out.pos;
  }

  /** One link to page {@code to} of this host, in a form chosen by {@code form} (0..19). */
  private void sameHostLink(ByteSink out, int host, int from, int to, int form, int index) {
    if (form < 8) {
      rootRelative(out, to);
    } else if (form < 14) {
      out.put(origins[host]);
      rootRelative(out, to);
    } else if (form < 17) {
      documentRelative(out, from, to);
    } else if (form < 19 && from > 0) {
      out.put(DOT_DOT_SLASH);
      if (to > 0) out.put(P_RELATIVE).putInt(to).put(HTML);
    } else {
      rootRelative(out, to);
      out.put(FRAGMENT).putInt(index);
    }
  }

  private static void rootRelative(ByteSink out, int to) {
    if (to == 0) out.put((byte) '/');
    else out.put(P_PREFIX).putInt(to).put(HTML);
  }

  /** Relative to the page's own path: {@code /} for page 0, {@code /p/n.html} otherwise. */
  private static void documentRelative(ByteSink out, int from, int to) {
    if (from == 0) {
      if (to == 0) out.put(DOT_SLASH);
      else out.put(P_RELATIVE).putInt(to).put(HTML);
    } else {
      if (to == 0) out.put(DOT_DOT_SLASH);
      else out.putInt(to).put(HTML);
    }
  }

  private void words(ByteSink out, int first, int count) {
    for (int i = 0; i < count; i++) {
      if (i > 0) out.put((byte) ' ');
      out.put(text.word(first + i));
    }
  }
}

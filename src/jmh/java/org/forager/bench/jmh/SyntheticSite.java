package org.forager.bench.jmh;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A news site's article page, about 30 KB of HTML with 40 links, the same bytes on every call: a
 * head with metadata, stylesheets and an inline script, a navigation bar, an article of paragraphs
 * with links in the text, and a footer. The links mix the shapes a crawler meets (root-relative,
 * relative with dot segments, absolute, scheme-relative, other origins, queries, fragments, escapes,
 * stray whitespace, a {@code mailto:} and a {@code javascript:}) in about the proportions of real
 * pages, where most links are root-relative navigation. Stateless.
 */
final class SyntheticSite {

  /** The URL the page is fetched from, normalized. */
  static final String PAGE_URL = "https://www.example.org/news/2026/11/climate-talks-1234.html";

  /** Target size of {@link #page()}: typical of an HTML document (HTTP Archive median is ~30 KB). */
  static final int PAGE_BYTES = 30_000;

  private static final String[] WORDS = (
      "the of and to in a is that for it as was with be by on not he this are or his from at which "
      + "but have an they you were her she there been one all we their has would when if can more no "
      + "out so said what up its about into than them only other new some could time these two may "
      + "first then do any like my now over such our man me even most made after also did many before "
      + "must through back years where much your way well down should because each just those people "
      + "climate talks delegates agreement emissions minister government policy energy carbon report "
      + "summit negotiators finance countries targets renewable coal markets analysts research data")
      .split(" ");

  /** Rarer words, made of syllables: a real text's vocabulary is large, which gzip feels. */
  private static final String[] RARE_WORDS = rareWords(3000);

  private SyntheticSite() {}

  /** The page as UTF-8 bytes, {@link #PAGE_BYTES} long give or take a paragraph. */
  static byte[] page() {
    SplittableRandom random = new SplittableRandom(20261121);
    List<String> hrefs = hrefs();
    StringBuilder html = new StringBuilder(PAGE_BYTES + 4096);
    html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>Climate talks end with a late agreement | Example News</title>\n")
        .append("<meta name=\"description\" content=\"").append(sentence(random, 25)).append("\">\n")
        .append("<meta property=\"og:title\" content=\"Climate talks end with a late agreement\">\n")
        .append("<meta property=\"og:image\" content=\"https://static.example.org/img/1234-wide.jpg\">\n")
        .append("<link rel=\"canonical\" href=\"").append(PAGE_URL).append("\">\n")
        .append("<link rel=\"stylesheet\" href=\"/static/css/site.4f2a9c.css\">\n")
        .append("<link rel=\"icon\" href=\"/favicon.ico\">\n")
        .append("<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}");
    for (int i = 0; i < 40; i++) {
      html.append("gtag('event','section_").append(i).append("',{value:").append(random.nextInt(1000))
          .append(",label:'").append(WORDS[random.nextInt(WORDS.length)]).append("'});");
    }
    html.append("</script>\n</head>\n<body class=\"article-page\">\n<header class=\"site-header\">\n")
        .append("<nav class=\"main-nav\"><ul>\n");
    int link = 0;
    for (; link < 12; link++) {
      html.append("<li class=\"nav-item\"><a class=\"nav-link\" href=\"").append(hrefs.get(link)).append("\">")
          .append(WORDS[random.nextInt(WORDS.length)]).append("</a></li>\n");
    }
    html.append("</ul></nav>\n</header>\n<main id=\"content\">\n<article class=\"story\">\n")
        .append("<h1 class=\"headline\">Climate talks end with a late agreement</h1>\n")
        .append("<p class=\"byline\">By A. Reporter, <time datetime=\"2026-11-21T08:00:00Z\">21 November 2026</time></p>\n");
    int footerLinks = 8;
    int paragraphs = 0;
    while (html.length() < PAGE_BYTES - 1500) {
      html.append("<p class=\"story-text\">").append(sentence(random, 30 + random.nextInt(40)));
      if (link < hrefs.size() - footerLinks && paragraphs % 2 == 0) {
        html.append(" <a href=\"").append(hrefs.get(link++)).append("\">")
            .append(sentence(random, 3)).append("</a> ").append(sentence(random, 12));
      }
      html.append(".</p>\n");
      paragraphs++;
    }
    while (link < hrefs.size() - footerLinks) {
      html.append("<p class=\"related\"><a href=\"").append(hrefs.get(link++)).append("\">")
          .append(sentence(random, 6)).append("</a></p>\n");
    }
    html.append("</article>\n</main>\n<footer class=\"site-footer\"><ul>\n");
    for (; link < hrefs.size(); link++) {
      html.append("<li><a href=\"").append(hrefs.get(link)).append("\">")
          .append(WORDS[random.nextInt(WORDS.length)]).append("</a></li>\n");
    }
    html.append("</ul><p>&copy; 2026 Example News</p></footer>\n</body>\n</html>\n");
    return html.toString().getBytes(UTF_8);
  }

  /**
   * The 40 hrefs of {@link #page()}, as written in the HTML (with {@code &} unescaped), in document
   * order: 12 navigation, 20 in the article, 8 in the footer.
   */
  static List<String> hrefs() {
    List<String> hrefs = new ArrayList<>(List.of(
        // navigation: root-relative, as most sites write it
        "/", "/news/", "/news/world/", "/news/politics/", "/business/", "/science/",
        "/science/environment/", "/sport/", "/culture/", "/opinion/", "/search?q=&amp;lang=en",
        "https://www.example.org/account/login?return=%2Fnews%2F"));
    // article text: relative with dot segments, other sections, other origins
    for (int i = 0; i < 4; i++) hrefs.add("climate-talks-" + (1230 - i) + ".html");
    hrefs.add("../10/emissions-report-0987.html");
    hrefs.add("../../2025/12/./summit/../summit-preview-0456.html");
    hrefs.add("./climate-talks-1234.html#comments");
    hrefs.add("#top");
    hrefs.add("/topics/carbon%20markets");
    hrefs.add("/topics/%7Eenergy/caf%c3%a9");
    hrefs.add("  /news/world/europe/  ");
    hrefs.add("/news/2026/11/minister-interview-1201.html?ref=related&amp;pos=3");
    hrefs.add("https://www.example.org/news/2026/11/live-updates-1233.html");
    hrefs.add("http://www.example.org/archive/2019/climate");
    hrefs.add("//static.example.org/docs/agreement-text.pdf");
    hrefs.add("https://unfccc.example.int/documents/cop31-decision");
    hrefs.add("https://data.example.com/emissions?country=all&amp;year=2025");
    hrefs.add("https://www.other-news.example/2026/11/21/talks");
    hrefs.add("HTTPS://WWW.EXAMPLE.ORG:443/news/2026/11/explainer-1210.html");
    hrefs.add("/video/1234-summary");
    // footer
    hrefs.addAll(List.of("/about/", "/contact/", "/privacy/", "/terms/", "/rss/news.xml",
        "mailto:newsroom@example.org", "javascript:void(0)", "https://social.example/@examplenews"));
    return List.copyOf(hrefs);
  }

  /** The hrefs as the HTML parser hands them over: character references decoded. */
  static List<String> decodedHrefs() {
    return hrefs().stream().map(h -> h.replace("&amp;", "&")).toList();
  }

  private static String[] rareWords(int count) {
    String[] syllables = "ba ce di fo gu ha je ki lo mu na pe ri so tu va we xi yo za bri cla dre fli gro pla "
        .concat("pre sta tri qua ment tion ver con able ous ing ism").split(" ");
    SplittableRandom random = new SplittableRandom(31);
    String[] words = new String[count];
    for (int i = 0; i < count; i++) {
      StringBuilder word = new StringBuilder();
      for (int n = 2 + random.nextInt(3); n > 0; n--) word.append(syllables[random.nextInt(syllables.length)]);
      words[i] = word.toString();
    }
    return words;
  }

  /** Half common words, half rare ones with a skew towards the first (roughly Zipf-like). */
  private static String word(SplittableRandom random) {
    if (random.nextBoolean()) return WORDS[random.nextInt(WORDS.length)];
    double u = random.nextDouble();
    return RARE_WORDS[(int) (u * u * RARE_WORDS.length)];
  }

  private static String sentence(SplittableRandom random, int words) {
    StringBuilder s = new StringBuilder(words * 6);
    for (int i = 0; i < words; i++) {
      if (i > 0) s.append(' ');
      String word = word(random);
      s.append(i == 0 ? Character.toUpperCase(word.charAt(0)) + word.substring(1) : word);
    }
    return s.toString();
  }
}

package org.forager.sitemap;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.forager.url.Origin;
import org.forager.url.UrlNormalizer;

/**
 * Where an origin's sitemaps are: the {@code Sitemap:} lines of its robots.txt (sitemaps.org,
 * "Specifying the Sitemap location in your robots.txt file"; RFC 9309 section 2.2.4 allows such
 * other records), else {@code /sitemap.xml} at the origin's root, the conventional place. Stateless.
 */
public final class SitemapSources {

  /** At most this many sitemaps are taken from one robots.txt; a longer list is cut. */
  public static final int MAX_ROBOTS_SITEMAPS = 100;

  private SitemapSources() {}

  /**
   * The sitemap URLs to read for {@code origin}, in the order robots.txt lists them, without
   * duplicates.
   *
   * @param origin the origin whose robots.txt was read
   * @param robotsSitemaps the robots.txt's {@code Sitemap:} values as written ({@code
   *     RobotsRules.sitemaps()}); relative ones are resolved against the robots.txt URL as a browser
   *     resolves a link (the URL parser, which keeps what {@code java.net.URI} refuses, such as a host
   *     with {@code _} or a {@code |} in the query) and normalized, ones that are not http(s) dropped.
   *     They may name another host: robots.txt is how a site vouches for a sitemap hosted elsewhere (sitemaps.org, "Sitemaps &amp; Cross Submits")
   * @return at least one URL: {@code origin + "/sitemap.xml"} when robots.txt lists none usable
   */
  public static List<String> of(Origin origin, List<String> robotsSitemaps) {
    String robots = origin.robotsTxtUrl();
    Set<String> urls = new LinkedHashSet<>();
    for (String written : robotsSitemaps) {
      if (urls.size() == MAX_ROBOTS_SITEMAPS) break;
      if (!written.isBlank()) UrlNormalizer.resolve(robots, written.strip()).ifPresent(urls::add);
    }
    if (urls.isEmpty()) urls.add(defaultLocation(origin));
    return new ArrayList<>(urls);
  }

  /** {@code /sitemap.xml} at the origin's root, the conventional place. */
  public static String defaultLocation(Origin origin) {
    return origin + "/sitemap.xml";
  }
}

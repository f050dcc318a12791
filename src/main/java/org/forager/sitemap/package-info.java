/**
 * Sitemaps (sitemaps.org protocol 0.9): where an origin's sitemaps are ({@link
 * org.forager.sitemap.SitemapSources}, from robots.txt or the default {@code /sitemap.xml}) and what
 * one sitemap file lists ({@link org.forager.sitemap.SitemapReader}: page URLs with their lastmod,
 * or child sitemaps of an index), read as a stream (the JDK's StAX parser for XML) in bounded memory,
 * within the protocol's size and count limits applied during the read, refusing DTDs before the
 * parser sees them so that no external entity is resolved and no entity is expanded. Hostile or
 * broken files become a {@link org.forager.sitemap.SitemapResult.Failure}, never an exception.
 */
package org.forager.sitemap;

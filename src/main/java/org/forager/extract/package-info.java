/**
 * The Extractor stage: turns the bytes of a fetched HTML page and its response headers into what
 * the crawl loop needs next — the charset the page was decoded with, its outgoing links (after
 * {@code <base href>}, rel=nofollow and normalization), its canonical URL, and the noindex /
 * nofollow directives of meta robots and X-Robots-Tag. Lenient on the web: any bytes give a
 * result, never an exception. {@link org.forager.extract.HtmlExtractor} is the entry point; the
 * rest is package-private: the charset decision ({@code Charsets}), the streaming reader of the HTML
 * tokenizer ({@code HtmlTokenizer}, {@code StreamScan}) over the page's bytes or its decoded text
 * ({@code Markup}), and jsoup's DOM walk for the pages it leaves to a tree ({@code PageScan}).
 */
package org.forager.extract;

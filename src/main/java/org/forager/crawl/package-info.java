/**
 * The origin crawl loop (DESIGN.md, from the unobtanium design): per origin, fetch robots.txt, fill
 * the todo list from the store, crawl one URL, classify what came back, record it and feed the
 * politeness state. {@link org.forager.crawl.Crawler} is the library entry point.
 */
package org.forager.crawl;

/**
 * The politeness audit: reads a crawl log and proves, origin by origin, that no two requests were in
 * flight at once, that every interval kept the delay in force, and that robots.txt came first.
 */
package org.forager.audit;

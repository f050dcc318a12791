/**
 * Exports of a crawl: the crawl database as JSON lines, one object per known URL
 * ({@link org.forager.export.JsonlExporter}), and the WARC files as a WACZ package that replay
 * tools open ({@link org.forager.export.WaczExporter}).
 */
package org.forager.export;

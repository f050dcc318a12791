/** Export of the crawl database: one JSON object per known URL. */
package org.forager.export;

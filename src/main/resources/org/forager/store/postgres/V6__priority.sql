-- Forager crawl store, schema version 6 (docs/fleet.md, "Schema").
--
-- crawl_due.priority: the URL's rank among its origin's never-crawled URLs, quantized to 0..65535
-- (Ranking.quantize); kept once crawled. inlinks: how many pages linked to it while it was
-- uncrawled, each counted at that page's first crawl. hops: links followed outside the seeds'
-- domains to reach it, as first seen. All three live in crawl_due, beside depth, so due() reads one
-- table. Rows from before this version rank first (65535), as the embedded store reads its old
-- records; a constant default adds the columns without rewriting the table.
ALTER TABLE crawl_due
  ADD COLUMN priority integer NOT NULL DEFAULT 65535 CHECK (priority BETWEEN 0 AND 65535),
  ADD COLUMN inlinks integer NOT NULL DEFAULT 0 CHECK (inlinks >= 0),
  ADD COLUMN hops integer NOT NULL DEFAULT 0 CHECK (hops >= 0);

-- The never-crawled order: highest priority first, then shallowest, then URL. Partial, so a URL
-- leaves it at its first crawl; recrawls keep using crawl_due_order (due_at > '-infinity').
CREATE INDEX crawl_due_new ON crawl_due (origin, priority DESC, depth, url) WHERE fetch_count = 0;

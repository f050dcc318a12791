-- Forager crawl store, schema version 3 (docs/freshness.md, "Duplicates").
--
-- crawl_digest: the exact-duplicate index, the first URL of each origin seen with each body digest
-- (per origin: the same body on two sites may link to different pages). Inserted with
-- ON CONFLICT DO NOTHING, so of two processes registering one digest at once exactly one holds it.
-- crawl_history.duplicate_of: for DUPLICATE_CONTENT, that first URL; simhash: an HTML page's text
-- simhash (a signed 64-bit integer), for the export's near-duplicates.
CREATE TABLE crawl_digest (
  origin text COLLATE "C" NOT NULL,
  digest text COLLATE "C" NOT NULL,
  url text COLLATE "C" NOT NULL,
  PRIMARY KEY (origin, digest)
);
ALTER TABLE crawl_history ADD COLUMN duplicate_of text, ADD COLUMN simhash bigint;

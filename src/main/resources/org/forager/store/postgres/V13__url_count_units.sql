-- Forager crawl store, schema version 13: each origin's URLs as limits.max_urls_per_origin counts them,
-- a URL once for each 256 characters it has begun (UrlCap.weight), so that the cap bounds bytes too.
-- NULL for a row written before: its number of URLs stands for it (short only by its long URLs).
ALTER TABLE crawl_url_count ADD COLUMN units bigint CHECK (units >= 0);

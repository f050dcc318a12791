-- Forager crawl store, schema version 4 (docs/fleet.md, "Schema").
--
-- crawl_setting: the crawl's own settings kept across runs and shared by the fleet (CrawlStore
-- setting/saveSetting; the scope mode and lists today), by name. A save is an upsert; updated_at
-- says when a setting last changed, for whoever reads the table in psql.
CREATE TABLE crawl_setting (
  name text COLLATE "C" PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

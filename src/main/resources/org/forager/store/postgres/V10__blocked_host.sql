-- Forager crawl store, schema version 10 (docs/fleet.md, "Schema").
--
-- blocked_host: the hosts an operator blocked while a crawl ran (forager ctl block; CrawlStore
-- blocks/block/unblock): no request of any kind goes to the host or a host under it. Shared by the
-- fleet and kept across runs; blocked_by is cli, page or api.
CREATE TABLE blocked_host (
  host text COLLATE "C" PRIMARY KEY,
  since timestamptz NOT NULL,
  blocked_by text NOT NULL
);

-- Forager crawl store, schema version 5 (docs/fleet.md, "Schema").
--
-- crawl_scope.seed: whether the origin is a seed's (CrawlStore addScope) or one the crawl took on
-- while crawling in scope modes that widen (addDiscoveredOrigins). A run narrowing the scope starts
-- from the seeds' origins only. Every row before this version was a seed's origin, hence the
-- default; adding an origin as a seed's makes it one for good.
ALTER TABLE crawl_scope ADD COLUMN seed boolean NOT NULL DEFAULT true;

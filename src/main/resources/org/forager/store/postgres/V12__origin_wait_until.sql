-- Forager crawl store, schema version 12: the end of the last wait an origin asked for with Retry-After
-- (OriginState.waitUntil), so that a run started before it sends the origin nothing until then. NULL
-- when none is pending.
ALTER TABLE origin_state
  ADD COLUMN wait_until timestamptz,
  ADD COLUMN wait_until_nanos smallint;

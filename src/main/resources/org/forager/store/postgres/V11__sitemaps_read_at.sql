-- Forager crawl store, schema version 11: when an origin was taken up to read its sitemaps in the
-- current run (OriginState.RunProgress.sitemapsReadAt), so that a continuous run reads them again only
-- sitemaps.reread_after later, not each time the origin is taken up for its URLs. NULL when not known.
ALTER TABLE origin_state
  ADD COLUMN run_sitemaps_read_at timestamptz,
  ADD COLUMN run_sitemaps_read_at_nanos smallint;

-- Forager crawl store, schema version 7: how far each origin got in the current run
-- (OriginState.RunProgress), so that an origin put aside by a bounded working set and taken up again
-- in the same run goes on where it stopped. NULL when no run progress was saved.
ALTER TABLE origin_state
  ADD COLUMN run_started_at timestamptz,
  ADD COLUMN run_started_at_nanos smallint,
  ADD COLUMN run_pages bigint,
  ADD COLUMN run_flags smallint;

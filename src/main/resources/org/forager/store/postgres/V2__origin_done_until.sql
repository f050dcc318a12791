-- Forager crawl store, schema version 2 (docs/fleet.md, "How leases work").
--
-- done_until: the origin was released with nothing due before this time (its next due time, or
-- 'infinity'), so a process whose run's cutoff is earlier does not claim it again. NULL: not done.
-- Adding a URL of the origin clears it. A released, done origin also gets expires_at = done_until,
-- so the claim's range scan on origin_lease_expiry never visits it until then.
ALTER TABLE origin_lease ADD COLUMN done_until timestamptz;

-- Forager crawl store, schema version 9: fencing (docs/fleet.md, "How leases work").
--
-- epoch: how many times the origin was claimed. Every claim increments it and gives the new value
-- to its owner; a write that depends on holding the origin (its state, a crawl of one of its URLs,
-- the release) names the epoch it was granted and is refused once the epoch moved, so a process
-- whose lease ran out and was taken over writes nothing over the new holder's state.
ALTER TABLE origin_lease ADD COLUMN epoch bigint NOT NULL DEFAULT 0;

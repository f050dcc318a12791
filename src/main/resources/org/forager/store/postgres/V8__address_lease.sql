-- Forager crawl store, schema version 8: leases on IP addresses, so that per-IP politeness holds
-- across a fleet (docs/crawl-loop.md, "Politeness per IP address"): a process requests an address
-- only while it holds its lease. A row whose lease expired is free for any owner.
CREATE TABLE address_lease (
  address text COLLATE "C" PRIMARY KEY,
  owner text NOT NULL,
  expires_at timestamptz NOT NULL
);

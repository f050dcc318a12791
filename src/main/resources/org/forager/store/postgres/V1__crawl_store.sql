-- Forager crawl store, schema version 1 (docs/fleet.md).
--
-- Every table that grows with the crawl leads its primary key with origin: the distribution
-- column if the database is ever sharded by origin (Citus create_distributed_table), so every
-- statement of the store touches one origin's shard per row. URLs and origins are compared as
-- bytes (COLLATE "C"): exact, locale-independent, and the URL order of the embedded store.
--
-- Instants the store must give back exactly are a timestamptz (microseconds, readable in psql)
-- plus a *_nanos column holding the nanoseconds below the microsecond (0..999).

CREATE TABLE crawl_scope (
  origin text COLLATE "C" PRIMARY KEY
);

-- What never changes once a URL is known: where and when it was found. Insert-only.
CREATE TABLE crawl_url (
  origin text COLLATE "C" NOT NULL,
  url text COLLATE "C" NOT NULL,
  depth integer NOT NULL CHECK (depth BETWEEN 0 AND 65535),
  discovered_from text COLLATE "C",
  discovered_at timestamptz NOT NULL,
  PRIMARY KEY (origin, url)
);

-- What changes with every crawl action: when the URL is due, how often it was crawled, and the
-- validators of its next conditional GET. One row per crawl_url row, written in the same
-- transaction. due_at is '-infinity' while the URL was never crawled, so the due order is one
-- index range scan: never crawled first, shallowest first, then recrawls by due time.
CREATE TABLE crawl_due (
  origin text COLLATE "C" NOT NULL,
  url text COLLATE "C" NOT NULL,
  due_at timestamptz NOT NULL,
  depth integer NOT NULL,
  fetch_count integer NOT NULL CHECK (fetch_count >= 0),
  etag text,
  last_modified text,
  PRIMARY KEY (origin, url)
);
CREATE INDEX crawl_due_order ON crawl_due (origin, due_at, depth, url);

-- One row per crawl action; seq is the URL's fetch count after the action (1, 2, ...), so the
-- latest action is the row whose seq is crawl_due.fetch_count. Append-only.
CREATE TABLE crawl_history (
  origin text COLLATE "C" NOT NULL,
  url text COLLATE "C" NOT NULL,
  seq integer NOT NULL CHECK (seq >= 1),
  fetched_at timestamptz NOT NULL,
  fetched_at_nanos smallint NOT NULL,
  outcome text NOT NULL,
  http_status integer NOT NULL,
  duration_ms bigint NOT NULL,
  content_type text,
  content_length bigint NOT NULL,
  digest text,
  redirect_to text,
  canonical text,
  noindex boolean NOT NULL,
  nofollow boolean NOT NULL,
  etag text,
  last_modified text,
  next_fetch_at timestamptz NOT NULL,
  next_fetch_at_nanos smallint NOT NULL,
  PRIMARY KEY (origin, url, seq)
);

-- The exact number of known URLs, per origin: a single counter row would serialize every writer
-- of the fleet; per origin, only writers of the same origin wait for each other.
CREATE TABLE crawl_url_count (
  origin text COLLATE "C" PRIMARY KEY,
  urls bigint NOT NULL CHECK (urls >= 0)
);

-- What the crawl loop keeps about an origin between runs (OriginState).
CREATE TABLE origin_state (
  origin text COLLATE "C" PRIMARY KEY,
  delay_ms bigint NOT NULL,
  patience integer NOT NULL,
  robots_status integer,
  robots_body bytea,
  robots_fetched_at timestamptz,
  robots_fetched_at_nanos smallint,
  robots_expires_at timestamptz,
  robots_expires_at_nanos smallint,
  CHECK ((robots_status IS NULL) = (robots_body IS NULL)
     AND (robots_status IS NULL) = (robots_fetched_at IS NULL)
     AND (robots_status IS NULL) = (robots_expires_at IS NULL))
);

-- Which crawler process may crawl an origin, until when (server clock). One row per scope origin.
-- A free origin has no owner, or a lease that expired: expires_at < now(). Released origins get
-- expires_at = the release time and never-leased ones '-infinity', so claiming in expires_at
-- order takes never-leased origins first, then the longest-idle ones (round robin).
CREATE TABLE origin_lease (
  origin text COLLATE "C" PRIMARY KEY,
  owner text,
  expires_at timestamptz NOT NULL DEFAULT '-infinity'
);
CREATE INDEX origin_lease_expiry ON origin_lease (expires_at, origin);

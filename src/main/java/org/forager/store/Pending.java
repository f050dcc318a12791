package org.forager.store;

/** A validated candidate on its way into the store, with its URL key and serialized origin. */
record Pending(Candidate candidate, byte[] urlKey, String origin) {}

package org.forager.fetch;

/** One HTTP header field as it was sent or received. */
public record Header(String name, String value) {}

/**
 * Coverage-guided fuzz tests (Jazzer) of the parts of Forager that read what the web sends: URL
 * normalization and resolution, link extraction from HTML, and robots.txt rules. Each target turns the
 * fuzzer's bytes into random bytes, random text, or a token soup over a vocabulary of the format (see
 * {@link org.forager.fuzz.Soup}), sometimes repeated into a huge input, and checks properties that must
 * hold for any input: never an exception, and outputs in normalized form. Not part of {@code ./test}:
 * run with {@code bench/fuzz} (Maven profile {@code fuzz}); docs/robustness.md says how.
 */
package org.forager.fuzz;

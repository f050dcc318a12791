/**
 * Finding Forager's own native libraries (built from {@code src/main/c} by {@code
 * bin/native-libraries}): each is optional, its user falling back to Java. And the bounded pool of
 * native buffers their callers copy into.
 */
package org.forager.natives;

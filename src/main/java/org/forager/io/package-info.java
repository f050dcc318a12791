/**
 * What the crawl's file operations tell a user when they fail: the operating system's reason in words
 * ({@link org.forager.io.IoFailures}), never a Java exception's class name.
 */
package org.forager.io;

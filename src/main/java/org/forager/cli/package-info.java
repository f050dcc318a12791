/** The {@code forager} command line: a thin layer of picocli over the library. */
package org.forager.cli;

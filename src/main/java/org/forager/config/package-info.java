/**
 * Turns a YAML configuration file and the command-line flags into one validated {@link
 * org.forager.config.CrawlConfig}: every key of the contract, its default, its type and its range are
 * checked here, so that a mistake stops the program with one line naming the key path and the problem
 * ({@link org.forager.config.ConfigException}) before anything is fetched. Durations ({@code 30m}) and
 * sizes ({@code 2MiB}) have their own small parsers, {@link org.forager.config.Durations} and {@link
 * org.forager.config.Sizes}.
 */
package org.forager.config;

/**
 * The crawl's scope: which URLs may become candidates and be requested at all, from the seeds and the
 * {@code scope} configuration (docs/scope.md). {@link org.forager.scope.Scope} decides per URL, in one
 * of three modes: the seeds' origins, the seeds' registrable domains ({@link
 * org.forager.scope.RegistrableDomain}, from the public suffix list), or the open web, with allow and
 * deny lists of domains and a cap on the number of origins. It is pure: no I/O, no state that changes.
 */
package org.forager.scope;

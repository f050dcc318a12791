/**
 * The frontier's scheduler: origins take turns, each waiting for the time it may next be contacted
 * (a min-heap, the "penalty box"); among those whose time has come, the one holding the best work
 * goes first (the front queues' priority). At most one turn per origin is in flight. The per-IP
 * politeness slots ({@link org.forager.frontier.Slots}) bound the requests to one address across
 * its origins, and bring a waiting origin's turn forward when a slot comes free.
 */
package org.forager.frontier;

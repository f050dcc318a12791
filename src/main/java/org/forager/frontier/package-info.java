/**
 * The frontier's scheduler: origins take turns, ordered by the time each may next be contacted
 * (a min-heap, the "penalty box"), with at most one turn per origin in flight.
 */
package org.forager.frontier;

package org.forager.frontier;

import java.util.List;

/**
 * Where a {@link Scheduler} with a bounded working set gets its tasks: it asks for more whenever it
 * holds fewer than its capacity, and tells of each task that finished, which then leaves the schedule
 * (a finished task is not parked: it is the source's to hand out again). Called under the scheduler's
 * lock: each call must be quick and must not call back into the scheduler.
 */
public interface TaskSource {

  /** Up to {@code max} tasks to put in line now; fewer, or none, when the source has no more now. */
  List<? extends OriginTask> next(int max);

  /** A task whose turn returned finished (and was not woken meanwhile): it leaves the schedule. */
  void finished(OriginTask task);
}

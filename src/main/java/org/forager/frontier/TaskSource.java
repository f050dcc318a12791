package org.forager.frontier;

import java.util.List;

/**
 * Where a {@link Scheduler} with a bounded working set gets its tasks: it asks for more whenever it
 * holds fewer than its capacity (tasks in line or running), and tells of each task that finished,
 * which then leaves the schedule unless the source keeps it parked. Called under the scheduler's
 * lock: each call must be quick and must not call back into the scheduler.
 */
public interface TaskSource {

  /** Up to {@code max} tasks to put in line now; fewer, or none, when the source has no more now. */
  List<? extends OriginTask> next(int max);

  /**
   * A task whose turn returned finished (and was not woken meanwhile).
   *
   * @return true when it leaves the schedule (the source hands it out again when it has work); false
   *     to keep it parked, to be woken with {@link Scheduler#wake} (an origin resting until a time)
   */
  boolean finished(OriginTask task);
}

/**
 * How soon a job taken by a process that does not run its connection goes back to the queue, for the owner to
 * take (decision 0020). Random, over more than a worker's polling interval (0.5 s): with a fixed delay the
 * process that re-queues polls again just as the job falls due, in step with itself, and can take it again and
 * again while the owner's polls keep landing before it is due.
 */
export function otherProcessRetryMs(random: () => number = Math.random): number {
  return 100 + Math.round(random() * 700);
}

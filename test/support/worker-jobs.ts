// Jobs for the worker queue's own test (src/shared/worker-queue.test.ts), run on its thread. Each
// answers with the thread it ran on, so that the test can tell a kept thread from a fresh one.
import { threadId } from 'node:worker_threads';

export class Refused extends Error {}

export interface WorkerJob {
  /** what the job does: answers, refuses its input, fails, or never ends */
  does: 'answer' | 'refuse' | 'fail' | 'hang';
  value: number;
}

export function runJob(job: WorkerJob): { value: number; threadId: number } {
  if (job.does === 'refuse') throw new Refused(`refused ${job.value}`);
  if (job.does === 'fail') throw new Error(`failed ${job.value}`);
  // a job stuck in its own code: only ending the thread stops it
  while (job.does === 'hang');
  return { value: job.value, threadId };
}

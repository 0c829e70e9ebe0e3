// Training off the request thread (issue 22). nlp.js trains synchronously: on the event loop a
// 437 KB bot file blocked every request for 22 s, and a 2.1 MB one ran the process out of heap. So
// the server trains on a thread of its own (shared/worker-queue.ts: one model at a time, a bounded
// queue, a heap cap and a time bound); a training that goes over a cap ends the thread, never the
// server, and its request gets 422 TRAINING_LIMIT. Save-time limits (languages.ts NLP_LIMITS) keep
// an allowed model well inside both caps; the caps are the backstop.
// The thread runs model.ts's own `train`, so the model is the same wherever it is trained.
import type { NlpSection } from '../engine/bot-file.js';
import { AppError } from '../shared/errors.js';
import { moduleNextTo, WorkerQueue, type WorkerQueueRefusals } from '../shared/worker-queue.js';
import { trainWith } from './model.js';
import { DEFAULT_TRAINING_LIMITS, type TrainingLimits } from './training-limits.js';

function overLimit(limit: string, max: number, what: string): AppError {
  return new AppError('TRAINING_LIMIT', `Training the intent model ${what}: use fewer intents, or fewer or shorter examples.`, { Limit: limit, Max: max });
}

/** A full queue is a 503 (try again soon); a model over a cap is the bot's, a 422. */
const refusals: WorkerQueueRefusals = {
  busy: (queue) => new AppError('TRAINING_BUSY', undefined, { Limit: 'TrainingQueue', Max: queue }),
  overMemory: (memoryMb) => overLimit('TrainingMemoryMB', memoryMb, `needed more than ${memoryMb} MB of memory`),
  overTime: (seconds) => overLimit('TrainingSeconds', seconds, `took longer than ${seconds} s`),
};

export class Trainer {
  private readonly queue: WorkerQueue<NlpSection, string>;

  constructor(limits: TrainingLimits = DEFAULT_TRAINING_LIMITS) {
    this.queue = new WorkerQueue({ work: 'training', module: moduleNextTo(import.meta.url, './model'), run: 'train', errors: refusals }, limits);
  }

  get limits(): TrainingLimits {
    return this.queue.limits;
  }

  set limits(limits: TrainingLimits) {
    this.queue.limits = limits;
  }

  /** The exported model, trained on the thread; rejects with TRAINING_BUSY or TRAINING_LIMIT. */
  train(section: NlpSection): Promise<string> {
    return this.queue.run(section);
  }

  /** How many trainings wait, and whether one runs (tests, metrics). */
  get load(): { running: boolean; waiting: number } {
    return this.queue.load;
  }
}

const trainer = new Trainer();

/** From now on, this process trains on the thread, within `limits` (main.ts, once per server). */
export function trainOffThread(limits: TrainingLimits = DEFAULT_TRAINING_LIMITS): Trainer {
  trainer.limits = limits;
  trainWith((section) => trainer.train(section));
  return trainer;
}

// What every part of the wiring is built from: the configuration, the store, the clock and the
// start options. The parts (one file per domain in this folder) take it and return their services;
// wiring.ts calls them in the order their dependencies need.
import type { Config } from '../config.js';
import type { Clock } from '../shared/clock.js';
import type { Store } from '../store/index.js';

export interface StartOptions {
  clock?: Clock;
  /** pino options, or false for silence (tests) */
  logger?: boolean | object;
  log?: (line: string) => void;
  random?: () => number;
  /** conversations read per audience query of a broadcast (tests make it small to cross page boundaries) */
  audiencePage?: number;
}

export interface WiringBase {
  config: Config;
  store: Store;
  clock: Clock;
  options: StartOptions;
  /** a background failure's message, logged under `what` (nothing waits for it) */
  logError(what: string): (error: unknown) => void;
}

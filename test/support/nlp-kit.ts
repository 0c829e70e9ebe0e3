// Bot sections for the tests of what an intent model costs (issue 22).

/** Distinct pseudo-random words of `letters` letters, the same on every run. */
export function words(seed: number, letters: number): () => string {
  let s = seed;
  return () => {
    let w = '';
    for (let k = 0; k < letters; k++) w += String.fromCharCode(97 + ((s = (s * 1103515245 + 12345) & 0x7fffffff) % 26));
    return w;
  };
}

const intents = (make: () => string) => Array.from({ length: 50 }, (_, i) => ({ name: `intent_${i}`, examples: Array.from({ length: 20 }, make) }));

/** 50 intents × 20 examples of 5 distinct words: every cap nearly reached (about 30,000 characters), the widest model. */
export function largeAllowedIntents(seed: number) {
  const word = words(seed, 5);
  return intents(() => [word(), word(), word(), word(), word()].join(' '));
}

/** 50 intents × 20 examples of ten two-letter words: allowed and small, but nlp.js needs many rounds (2.6 s here, bench/train-worst.ts). */
export function slowAllowedIntents(seed: number) {
  const word = words(seed, 2);
  return intents(() => Array.from({ length: 10 }, word).join(' '));
}

// Deterministic "meaning" vectors for the embeddings test double: a text's words (lower-cased,
// stop words dropped, plural and -ing/-ed endings cut) are mapped to concepts by a small table of
// synonyms (a stand-in for what a real embedding model learned), and each concept or unknown word
// adds +1 to one of DIMENSIONS coordinates chosen by its hash. So "can my kitten come aboard"
// and "pets in the cabin" share the concepts pet and cabin and lie close, while a text about the
// weather shares nothing with either. The server scales vectors to length 1 itself.
const DIMENSIONS = 256;

const CONCEPTS: Record<string, string[]> = {
  pet: ['pet', 'dog', 'cat', 'kitten', 'puppy', 'animal', 'hound', 'feline', 'canine'],
  cabin: ['cabin', 'aboard', 'onboard', 'seat'],
  carrier: ['carrier', 'crate', 'cage', 'kennel'],
  travel: ['travel', 'fly', 'flight', 'trip', 'journey', 'plane', 'flying'],
  refund: ['refund', 'reimburse', 'repay', 'repayment', 'reimbursement', 'compensation', 'money'],
  cancel: ['cancel', 'cancellation', 'called'],
  luggage: ['luggage', 'suitcase', 'baggage', 'bag', 'hold'],
  cost: ['cost', 'price', 'fee', 'charge', 'euro', 'pay', 'expensive'],
  human: ['human', 'agent', 'person', 'operator', 'someone', 'staff', 'representative'],
  order: ['order', 'parcel', 'package', 'shipment', 'delivery'],
  where: ['where', 'track', 'locate', 'status'],
  weight: ['kilogram', 'kg', 'heavy', 'weight'],
};
const STOP = new Set(
  'a an the i me my you your we our it is are be can could may might will would to of in on at for with and or do does did please there this that what how from as by up get come bring have has'.split(
    ' ',
  ),
);

const conceptOf = new Map<string, string>();
for (const [concept, words] of Object.entries(CONCEPTS)) for (const word of words) conceptOf.set(word, concept);

const stem = (word: string): string => {
  for (const ending of ['ing', 'ed', 'es', 's']) if (word.length > ending.length + 2 && word.endsWith(ending)) return word.slice(0, -ending.length);
  return word;
};

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The concepts (or stems) of a text, as the double reads it (tests use this to explain a choice). */
export function conceptsOf(text: string): string[] {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return words.filter((w) => !STOP.has(w)).map((w) => conceptOf.get(w) ?? conceptOf.get(stem(w)) ?? stem(w));
}

export function conceptVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  // a faint common part: an empty or stop-word-only text still has a direction (a real model's never is zero)
  vector[0] = 0.01;
  for (const concept of conceptsOf(text)) vector[1 + (hash(concept) % (DIMENSIONS - 1))] += 1;
  return vector;
}

// nlp.js ships no TypeScript declarations: the little of it the server uses, typed here.
declare module '@nlpjs/core' {
  export interface Container {
    use(plugin: unknown): void;
    registerConfiguration(tag: string, settings: Record<string, unknown>, overwrite?: boolean): void;
  }
  export function containerBootstrap(settings?: Record<string, unknown>): Promise<Container>;
}

declare module '@nlpjs/lang-en-min' {
  export const LangEn: unknown;
  /** Snowball stemmer (knowledge/stems.ts) */
  export class StemmerEn {
    stemWord(word: string): string;
  }
}
declare module '@nlpjs/lang-de' {
  export const LangDe: unknown;
  /** Snowball stemmer (knowledge/stems.ts) */
  export class StemmerDe {
    stemWord(word: string): string;
  }
}
declare module '@nlpjs/lang-fr' {
  export const LangFr: unknown;
  /** Snowball stemmer (knowledge/stems.ts) */
  export class StemmerFr {
    stemWord(word: string): string;
  }
}
declare module '@nlpjs/lang-es' {
  export const LangEs: unknown;
  /** Snowball stemmer (knowledge/stems.ts) */
  export class StemmerEs {
    stemWord(word: string): string;
  }
}
declare module '@nlpjs/lang-it' {
  export const LangIt: unknown;
  /** Snowball stemmer (knowledge/stems.ts) */
  export class StemmerIt {
    stemWord(word: string): string;
  }
}
declare module '@nlpjs/lang-pt' {
  export const LangPt: unknown;
  /** Snowball stemmer (knowledge/stems.ts) */
  export class StemmerPt {
    stemWord(word: string): string;
  }
}
declare module '@nlpjs/lang-nl' {
  export const LangNl: unknown;
  /** Snowball stemmer (knowledge/stems.ts) */
  export class StemmerNl {
    stemWord(word: string): string;
  }
}

declare module '@nlpjs/nlp' {
  import type { Container } from '@nlpjs/core';
  export interface Classification {
    intent: string;
    score: number;
  }
  export class Nlp {
    constructor(settings: Record<string, unknown>, container: Container);
    addLanguage(locales: string | string[]): void;
    addDocument(locale: string, utterance: string, intent: string): void;
    train(): Promise<unknown>;
    classify(locale: string, utterance: string): Promise<{ classifications: Classification[] }>;
    export(minified?: boolean): string;
    import(json: string): void;
  }
}

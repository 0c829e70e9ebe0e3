// The `stopword` package ships no types: the word lists this server reads (ISO 639-3 names).
declare module 'stopword' {
  export const eng: readonly string[];
  export const deu: readonly string[];
  export const fra: readonly string[];
  export const spa: readonly string[];
  export const ita: readonly string[];
  export const por: readonly string[];
  export const nld: readonly string[];
}

// The numbers of what one conversation may hold (docs/limits.md): here and only here. They are in
// shared/ because the bot file's schema (bots/) states one of them while conversations/, which
// enforces them (conversations/limits.ts), reads bots' records (issue 38: no folder circle).

export const LIMITS = Object.freeze({
  /** variables a request may bring a conversation up to (bot defaults and system variables count) */
  variablesPerConversation: 200,
  /** UTF-8 bytes of one variable value sent by a request */
  variableValueBytes: 4 * 1024,
  /** UTF-8 bytes of one variable value the flow writes (setVariable append, callApi answers): cut beyond */
  flowValueBytes: 64 * 1024,
  /** tags a request may bring a conversation up to; the flow's setTag adds none beyond */
  tagsPerConversation: 100,
  /** characters of a tag the flow makes from a template (requests: the route schema's 256) */
  tagLength: 256,
  /** privacy flags a flow may set (their names are templates too) */
  privacyFlagsPerConversation: 100,
  /** stored messages kept per conversation, newest first; older ones are deleted on write */
  historyMessages: 1000,
  /** bytes of stored parts (JSON) kept per conversation; the newest message is always kept */
  historyBytes: 1024 * 1024,
  /** levels of nested `Parts` in an injection (a part without children is 1 level) */
  partsDepth: 8,
  /** UTF-8 bytes of a missed text (understanding.md) as stored, grouped and listed: cut beyond */
  missedTextBytes: 1024,
  /** missed texts kept per conversation, newest first; older ones are deleted with the turn's write */
  missedTextsPerConversation: 100,
  /** operators' notes a conversation keeps (the console shows no more); an agent's hand-over reason is one */
  notesPerConversation: 200,
  /** agent turns whose trace a conversation keeps (agents.md "Trace"), newest */
  agentTracesPerConversation: 100,
  /**
   * ...on every this-many-th turn of the conversation (its revision): trimming on every turn cost a
   * fallback turn 4 % of its throughput (docs/performance.md), so a conversation holds at most
   * missedTextsPerConversation + missedTextsTrimEvery - 1 between two trims.
   */
  missedTextsTrimEvery: 10,
  /** missed texts kept per bot, newest first (the maintenance pass deletes the rest) */
  missedTextsPerBot: 10_000,
  /** days a missed text is kept (the maintenance pass deletes older ones) */
  missedTextDays: 90,
});

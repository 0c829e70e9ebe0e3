// Plain words for the bot schema's own (issue 37): the forms are generated from /schema/bot.json,
// whose field names and values are written for the file (`endsWith`, `simplifiedAuth`), not for the
// support lead who builds the bot. This is the one table that says them for people; a word missing
// here falls back to the schema's key split into words ("onSuccess" → "On success").
import { words } from './schema';

/** Field names, by their key in the bot file. */
const FIELDS: Record<string, string> = {
  simplifiedAuth: 'Let channels sign in with the bot key alone',
  // governance.md "Retention"
  retention: 'Retention: conversations forgotten automatically',
  inactiveDays: 'Forget a conversation idle for (days, 0: never)',
  keepDays: 'Forget a conversation this many days after it began (0: never)',
  enableTypeSpeed: 'Wait as long as a person would take to type each reply',
  wordsPerMinute: 'Typing speed (words a minute)',
  includeAllChannels: 'Also send the replies of the other channels',
  webhookUrl: 'Send the replies to this address',
  allowedOrigins: 'Sites allowed to show the widget',
  acceptVariables: 'Variables a page may set',
  cancelFurtherExecution: 'Skip the rest of this interaction',
  present: 'Run “then” when the tag is there (unticked: when it is not)',
  enabled: 'On',
  say: 'Say the answer',
  cite: 'Name the sources after the answer',
  async: 'Go on without waiting for the answer',
  whileWaiting: 'Also while a question waits for an answer',
  aiFallback: 'Let the AI choose an intent when none is sure enough',
  beforeFallback: 'Ask the knowledge before the fallback answers',
  criteria: 'Condition',
  value2: 'and',
  ms: 'Wait (milliseconds)',
  timeoutMs: 'Give up after (milliseconds)',
  maxWrongAnswers: 'Wrong answers allowed',
  wrongAnswerTexts: 'Said after a wrong answer',
  expect: 'Expected answer',
  onClick: 'When clicked',
  onSuccess: 'When answered',
  onGiveUp: 'When the user gives up',
  onError: 'When it fails',
  onNoAnswer: 'When there is no answer',
  then: 'Then',
  else: 'Otherwise',
  maxPassages: 'Passages the model reads',
  // agents.md: an agent action and its tools
  instructions: 'Instructions',
  maxSteps: 'Model calls a turn may make',
  history: 'Earlier messages the model reads',
  parameters: 'Arguments the model gives',
  schema: 'Allowed values',
  request: 'Request',
  responsePath: 'Part of the answer the model reads (path)',
  approval: 'An operator approves each call first',
  approvalMessage: 'Said while the approval waits',
  server: 'MCP server',
  allow: 'Only these tools of the server',
};

/** The kinds of an agent's tools (agents.md "Tools"), by their `type`. */
export const TOOL_KINDS: Record<string, string> = {
  http: 'Call a web service (HTTP)',
  flow: 'Go to a flow of the bot',
  variable: 'Remember a value in a variable',
  knowledge: "Search the bot's knowledge",
  handover: 'Hand over to a person',
  mcp: 'Tools of an MCP server',
};

/** Values of a field's list of choices, by field name (a value means different things in different fields). */
const VALUES: Record<string, Record<string, string>> = {
  criteria: {
    equals: 'is',
    notEquals: 'is not',
    contains: 'contains',
    startsWith: 'starts with',
    endsWith: 'ends with',
    matches: 'matches the pattern',
    empty: 'is empty',
    notEmpty: 'is not empty',
    greaterThan: 'is more than',
    lessThan: 'is less than',
    between: 'is between',
  },
  mode: {
    absolute: 'a chosen interaction',
    start: 'the start of this behaviour',
    previous: 'the previous interaction',
    fallback: 'the fallback of this behaviour',
    bookmark: 'the bookmark',
    overwrite: 'set to',
    append: 'add to the list',
    concatenate: 'add to the end of the text',
    add: 'add (a number)',
    subtract: 'subtract',
    multiply: 'multiply by',
    divide: 'divide by',
    replace: 'replace',
    remove: 'remove from the list',
    clear: 'clear',
    request: 'ask for a person',
    takeover: 'a person takes over',
    bot: 'back to the bot',
    reply: 'reply',
    classify: 'choose a label',
    extract: 'pick out fields',
    view: 'see the conversation',
    auto: 'see, then take over',
  },
  expect: { any: 'any answer', number: 'a number', email: 'an e-mail address', phone: 'a phone number', url: 'a web address', date: 'a date' },
  whileWaiting: { quiet: 'stay quiet', bot: 'keep answering' },
};

/** The kinds of a field that may take one of several shapes (an input's expected answer, a trigger's match). */
export const KINDS = {
  list: 'a kind of answer',
  alternatives: 'one of these words',
  regex: 'a pattern',
  entity: 'an entity',
  intent: 'an intent',
  match: 'words or a pattern',
} as const;

/** Words for a field name: the table's, or the key itself in words, as a label starts (onSuccess → "On success"). */
export const label = (name: string) => FIELDS[name] ?? capitalised(words(name));
/** The same words inside a sentence ("Add to alternatives"). */
export const inSentence = (name: string) => {
  const said = label(name);
  return said.charAt(0).toLowerCase() + said.slice(1);
};
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
/** Words for one of a field's values. */
export const valueLabel = (field: string, value: string) => VALUES[field]?.[value] ?? words(value);

/** What a yes/no field left out means, when its schema says (in words, "(default true)") or the engine does. */
export function booleanDefault(name: string, description: string | undefined): boolean {
  if (/\(default true\)/.test(description ?? '')) return true;
  return name === 'present'; // tagSwitch: "then" runs on a present tag unless `present: false`
}

// A Dialogflow ES agent export (agent.json, intents/*.json with *_usersays_<lang>.json,
// entities/*.json with *_entries_<lang>.json) → a bot file and its report (importers.md
// "Dialogflow ES"). Pure: the files come in already parsed. Each intent becomes an interaction
// reached by an intent trigger; contexts become tags (set by the intent that outputs them,
// required by the intents that take them as input); webhooks are skipped.
import type { Action, Interaction, NlpIntent, Trigger } from '../../engine/bot-file.js';
import { NLP_LANGUAGES } from '../../understanding/languages.js';
import type { Conversion, ExportFiles } from '../model.js';
import { cleanName, NameBook } from '../names.js';
import { ImportRefusal } from '../refusal.js';
import { ReportBuilder } from '../report.js';
import { goToInteraction, isObj, listAt, objAt, oneBehaviourBot, textAt, type Obj } from '../shared.js';
import { convertEntities, entityFor, type ConvertedEntities } from './entities.js';
import { messagesOf, QUICK_REPLY_PATH } from './messages.js';

export const isDialogflowExport = (files: ExportFiles): boolean => files.has('agent.json') && [...files.keys()].some((p) => p.startsWith('intents/'));

interface SourceIntent {
  file: string;
  doc: Obj;
  name: string;
}

export function convertDialogflow(files: ExportFiles): Conversion {
  const agent = files.get('agent.json');
  if (!isObj(agent)) throw new ImportRefusal('IMPORT_INVALID', 'agent.json is not a JSON object.', { File: 'agent.json', Path: '$' });
  const report = new ReportBuilder();
  const language = (textAt(agent.language) ?? 'en').toLowerCase();
  const nlpLanguage = (NLP_LANGUAGES as readonly string[]).includes(language.slice(0, 2)) ? language.slice(0, 2) : 'en';
  if (nlpLanguage !== language)
    report.change(
      'agent.json: $.language',
      `the language "${language.slice(0, 20)}"`,
      `the intent model is trained as "${nlpLanguage}"${nlpLanguage === language.slice(0, 2) ? '' : ': Colloquy has no model for this language'}`,
    );
  if (isObj(agent.webhook) && textAt(agent.webhook.url))
    report.skip('agent.json: $.webhook', 'the fulfillment webhook', 'Colloquy calls services with callApi steps: add them where an intent used the webhook');
  if (typeof agent.mlMinConfidence === 'number')
    report.change('agent.json: $.mlMinConfidence', `the classification threshold ${agent.mlMinConfidence}`, "Colloquy's own threshold (0.7) applies: its scores are not Dialogflow's");

  const entities = convertEntities(files, language, report);
  const intents = [...files.entries()]
    .filter(([path, doc]) => /^intents\/[^/]+\.json$/.test(path) && !/_usersays_[^/]+\.json$/.test(path) && isObj(doc))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, doc]): SourceIntent => ({ file, doc: doc as Obj, name: file.slice('intents/'.length, -'.json'.length) }));
  for (const [path] of files)
    if (/_usersays_[^/]+\.json$/.test(path) && !path.endsWith(`_usersays_${language}.json`))
      report.skip(path, 'training phrases in another language', `the bot is made in the agent's language, "${language}"`);

  const interactionNames = new NameBook(report, 'interaction');
  const intentNames = new NameBook(report, 'intent');
  intentNames.name('none', '', 'none'); // reserved by the intent model: an intent called "none" is renamed
  const nlpIntents: NlpIntent[] = [];
  const triggers: Trigger[] = [];
  const interactions: Interaction[] = [];
  const named = intents.map((intent) => ({ ...intent, interaction: interactionNames.name(intent.doc.name ?? intent.name, `${intent.file}: $.name`, intent.name) }));
  const fallbackName = named.find((i) => i.doc.fallbackIntent === true && listAt(i.doc.contexts).length === 0)?.interaction;
  const welcome = named.find((i) => i.name === 'Default Welcome Intent') ?? named.find((i) => listAt(i.doc.events).some((e) => objAt(e).name === 'WELCOME'));

  for (const intent of named) {
    // what the intent loses (its webhook, required parameters, phrases) is reported with its interaction
    report.within(intent.interaction);
    const response = objAt(listAt(intent.doc.responses)[0]);
    const path = (p: string) => `${intent.file}: $${p}`;
    const actions: Action[] = [...contextActions(response, intent.file, report), ...messagesOf(response, intent.file, language, entities, report)];
    if (intent.doc.webhookUsed === true) report.skip(path('.webhookUsed'), `the webhook of intent "${intent.interaction}"`, 'fulfillment is not carried: add a callApi step to this interaction');
    for (const [i, p] of listAt(response.parameters).map(objAt).entries()) {
      if (p.required === true)
        report.skip(path(`.responses[0].parameters[${i}]`), `the required parameter "${textAt(p.name) ?? ''}"`, 'slot filling is not carried: ask for it with an input step expecting the entity');
    }
    const isFallback = intent.interaction === fallbackName;
    const isWelcome = intent === welcome;
    interactions.push({ name: intent.interaction, ...(isWelcome ? { start: true } : {}), ...(isFallback ? { fallback: true } : {}), actions });
    if (intent.doc.fallbackIntent === true && !isFallback)
      report.skip(path('.fallbackIntent'), `the fallback intent "${intent.interaction}"`, 'a behaviour has one fallback: this one takes contexts, the other does not');
    if (isFallback) continue;
    const examples = trainingPhrases(files.get(`intents/${intent.name}_usersays_${language}.json`), `intents/${intent.name}_usersays_${language}.json`, entities, report);
    if (examples.length < 2) {
      if (!isWelcome)
        report.skip(
          path('.name'),
          `the training phrases of "${intent.interaction}"`,
          `an intent needs at least two training phrases (it has ${examples.length}): the interaction is kept, reached by nothing`,
        );
      continue;
    }
    const intentName = intentNames.name(intent.doc.name ?? intent.name, path('.name'), intent.name);
    nlpIntents.push({ name: intentName, examples });
    triggers.push({ intent: intentName, actions: requireContexts(intent.doc, intent.interaction) });
  }
  report.within(null);
  linkQuickReplies(interactions, nlpIntents, triggers, report);
  if (!welcome) interactions.unshift({ name: interactionNames.name('Start', 'agent.json: $', 'Start'), start: true, actions: [] });
  const bot = oneBehaviourBot({
    name: cleanName(agent.description, 'Dialogflow agent'),
    interactions,
    triggers,
    nlp: { language: nlpLanguage, intents: nlpIntents, ...(entities.list.length > 0 ? { entities: entities.list } : {}) },
  });
  return { bot, report: report.finish(bot) };
}

/** Output contexts become tags set (lifespan > 0) or dropped (lifespan 0). */
function contextActions(response: Obj, file: string, report: ReportBuilder): Action[] {
  const actions: Action[] = [];
  listAt(response.affectedContexts).forEach((c, i) => {
    const context = objAt(c);
    const tag = textAt(context.name);
    if (!tag) return;
    const lifespan = typeof context.lifespan === 'number' ? context.lifespan : 5;
    actions.push(lifespan > 0 ? { type: 'setTag', tag } : { type: 'dropTag', tag });
    if (lifespan > 0) report.change(`${file}: $.responses[0].affectedContexts[${i}].lifespan`, `the lifespan of context "${tag}"`, 'a tag stays until it is dropped, not for a number of turns');
  });
  if (response.resetContexts === true) report.skip(`${file}: $.responses[0].resetContexts`, 'resetting every context', 'drop the tags one by one with dropTag');
  return actions;
}

/** The trigger's actions: the interaction, behind a tagSwitch per input context (else the fallback). */
function requireContexts(doc: Obj, interaction: string): Action[] {
  let actions: Action[] = [goToInteraction(interaction)];
  for (const context of listAt(doc.contexts).reverse()) {
    const tag = textAt(context);
    if (tag) actions = [{ type: 'tagSwitch', tag, then: actions, else: [{ type: 'goTo', mode: 'fallback' }] }];
  }
  return actions;
}

/** The phrases of a *_usersays_<lang>.json file; annotated parts are added to their entity. */
function trainingPhrases(doc: unknown, file: string, entities: ConvertedEntities, report: ReportBuilder): string[] {
  if (doc === undefined) return [];
  if (!Array.isArray(doc)) throw new ImportRefusal('IMPORT_INVALID', `${file} is not a list of training phrases.`, { File: file, Path: '$' });
  const seen = new Set<string>();
  const examples: string[] = [];
  doc.forEach((phrase, i) => {
    const parts = listAt(objAt(phrase).data).map(objAt);
    const text = parts
      .map((p) => textAt(p.text) ?? '')
      .join('')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 500);
    if (text === '' || seen.has(text.toLowerCase())) return;
    seen.add(text.toLowerCase());
    examples.push(text);
    parts.forEach((part, j) => {
      const meta = textAt(part.meta);
      const spelling = textAt(part.text)?.trim();
      if (!meta || !spelling) return;
      const values = entities.values.get(meta);
      if (values && !Object.values(values).some((list) => list.some((s) => s.toLowerCase() === spelling.toLowerCase()))) values[spelling] ??= [spelling];
      else if (entityFor(entities, meta) === null && !entities.missing.has(meta) && entities.missing.add(meta))
        report.skip(`${file}: $[${i}].data[${j}]`, `the annotation ${meta.slice(0, 60)}`, 'Colloquy has no such system entity');
    });
  });
  return examples;
}

/** A quick reply's button does what its text would do: the trigger of the intent that has it as a training phrase. */
function linkQuickReplies(interactions: Interaction[], intents: NlpIntent[], triggers: Trigger[], report: ReportBuilder): void {
  const byPhrase = new Map<string, Action[]>();
  intents.forEach((intent, i) => {
    for (const example of intent.examples) if (!byPhrase.has(example.toLowerCase())) byPhrase.set(example.toLowerCase(), triggers[i]!.actions);
  });
  for (const action of interactions.flatMap((i) => i.actions)) {
    const path = action[QUICK_REPLY_PATH];
    if (typeof path !== 'string') continue;
    delete action[QUICK_REPLY_PATH];
    for (const button of listAt(action.buttons).map(objAt)) {
      const linked = byPhrase.get(String(button.text).toLowerCase());
      if (linked) button.onClick = structuredClone(linked);
      else report.change(path, `the quick reply ${JSON.stringify(String(button.text).slice(0, 60))}`, 'no intent has it as a training phrase: its button does nothing yet, give it an onClick');
    }
  }
}

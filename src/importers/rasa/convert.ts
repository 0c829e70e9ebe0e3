// A Rasa 3.x project (domain, NLU data, rules, stories; in an archive or one YAML holding those
// keys) → a bot file and its report (importers.md "Rasa"). Pure: the files come in parsed.
// Rules and stories make a tree of turns (stories.ts); each turn is an interaction that says its
// responses (responses.ts). An intent reaches the turn that follows the one the conversation is
// in (the variable `story_step` holds it), else the turn that starts with it (or its first turn).
import type { Action, Interaction, Trigger } from '../../engine/bot-file.js';
import { NLP_LANGUAGES } from '../../understanding/languages.js';
import type { Conversion, ExportFiles } from '../model.js';
import { NameBook } from '../names.js';
import { ImportRefusal } from '../refusal.js';
import { ReportBuilder } from '../report.js';
import { goToInteraction, isObj, listAt, objAt, oneBehaviourBot, textAt, variableName, type Obj } from '../shared.js';
import { convertNlu, type NluSource } from './nlu.js';
import { responseActions, type ResponseContext } from './responses.js';
import { buildTurnTree, nodesOf, type StorySource, type TurnNode } from './stories.js';
import { formActions, requiredSlots } from './forms.js';

/** The variable that holds the turn a conversation is in, so that a story's next intent finds its turn. */
export const STORY_STEP = 'story_step';
const DOMAIN_KEYS = ['intents', 'responses', 'slots', 'forms', 'actions', 'entities', 'session_config'];
const NOT_CONTENT: Record<string, string> = {
  'config.yml': 'the NLU pipeline and policies: Colloquy trains its own intent model',
  'credentials.yml': 'channel credentials: connect channels through the API (they never travel in exports)',
  'endpoints.yml': 'the action server and tracker store endpoints: custom actions are not carried',
};

export const isRasaDocument = (doc: unknown): boolean => isObj(doc) && ['nlu', 'stories', 'rules', 'responses', 'intents'].some((k) => k in doc);

export function convertRasa(files: ExportFiles): Conversion {
  const report = new ReportBuilder();
  const domain: Obj = {};
  const nlu: NluSource[] = [];
  const stories: StorySource[] = [];
  let domainFile = 'domain.yml';
  let language = 'en';
  for (const [file, doc] of files) {
    const base = file.split('/').at(-1)!;
    if (/\.md$/i.test(file) && /(nlu|stories|rules)/i.test(base))
      throw new ImportRefusal('IMPORT_UNSUPPORTED', `${file} is Rasa 1.x Markdown training data: convert it with \`rasa data convert\` and export again.`, { File: file, Path: '$' });
    if (!isObj(doc)) continue;
    checkVersion(doc.version, file);
    if (base === 'config.yml' && textAt(doc.language)) language = textAt(doc.language)!.toLowerCase();
    if (NOT_CONTENT[base]) {
      report.skip(`${file}: $`, base, NOT_CONTENT[base]!);
      continue;
    }
    if (file.startsWith('tests/') || base.startsWith('test_')) {
      report.skip(`${file}: $`, 'test stories', 'conversation tests are not bot content: write them as Colloquy bot tests (docs/testing.md)');
      continue;
    }
    if (Array.isArray(doc.nlu)) nlu.push({ file, items: doc.nlu });
    if (Array.isArray(doc.rules)) stories.push({ file, key: 'rules', items: doc.rules });
    if (Array.isArray(doc.stories)) stories.push({ file, key: 'stories', items: doc.stories });
    for (const key of DOMAIN_KEYS) {
      if (doc[key] === undefined) continue;
      if (key === 'responses') domainFile = file;
      domain[key] = Array.isArray(doc[key]) ? [...listAt(domain[key]), ...(doc[key] as unknown[])] : { ...objAt(domain[key]), ...objAt(doc[key]) };
    }
  }
  if (nlu.length === 0 && stories.length === 0 && domain.responses === undefined)
    throw new ImportRefusal('IMPORT_INVALID', 'The Rasa project has no domain, NLU data, rules or stories.', { File: 'domain.yml', Path: '$' });

  const parsed = convertNlu(nlu, report);
  const responses = objAt(domain.responses);
  const forms = objAt(domain.forms);
  const slots = objAt(domain.slots);
  const root = buildTurnTree(stories, report);
  const nodes = nodesOf(root);

  const names = new NameBook(report, 'interaction');
  const startName = names.name('Start', '', 'Start');
  const fallbackNode = root.children.get('nlu_fallback');
  const interactionOf = new Map<TurnNode, string>();
  for (const node of nodes) if (node.actions.length > 0) interactionOf.set(node, names.name(node === fallbackNode ? 'Fallback' : node.trail.join(' > '), node.path, 'Turn'));

  const intentActions = (intent: string): Action[] | null => (parsed.intentNames.has(intent) ? triggerActions(intent, nodes, interactionOf) : null);
  const formSlots = new Set(Object.values(forms).flatMap((f) => requiredSlots(f)));
  const slotNames = new Map<string, string>();
  const variables: Record<string, string> = {};
  for (const [slot, definition] of Object.entries(slots)) {
    const name = variableName(slot, `${domainFile}: $.slots.${slot}`, report);
    slotNames.set(slot, name);
    const initial = textAt(objAt(definition).initial_value);
    variables[name] = initial ?? '';
  }
  const ctx: ResponseContext = {
    report,
    file: domainFile,
    intentActions,
    slotTemplate: (slot) => {
      const fromEntity = listAt(objAt(slots[slot]).mappings)
        .map(objAt)
        .find((m) => m.type === 'from_entity' && textAt(m.entity));
      if (fromEntity && !formSlots.has(slot)) return `{{entity_${textAt(fromEntity.entity)}}}`;
      return `{{${slotNames.get(slot) ?? slot}}}`;
    },
  };
  const said = new Map<string, Action[]>();
  const say = (response: string): Action[] | null => {
    if (!(response in responses)) return null;
    if (!said.has(response)) said.set(response, responseActions(response, responses[response], ctx));
    return structuredClone(said.get(response)!);
  };
  const reportedActions = new Set<string>();
  const actionsFrom = (node: TurnNode, from: number): Action[] => {
    const out: Action[] = [];
    for (let i = from; i < node.actions.length; i++) {
      const { name, path } = node.actions[i]!;
      const response = say(name);
      if (response) out.push(...response);
      else if (name in forms) {
        const form = formActions({ name, definition: forms[name], path, slots, slotNames, entities: parsed.entities, say, report });
        if (form) return [...out, ...form(actionsFrom(node, i + 1))];
      } else if (name !== 'action_listen') {
        reportedActions.add(name);
        report.skip(
          path,
          name.startsWith('utter_') ? `the response ${name}` : `the custom action ${name}`,
          name.startsWith('utter_') ? 'the domain has no such response' : 'it runs code on the Rasa action server: rebuild it with callApi steps',
        );
      }
    }
    return out;
  };

  const interactions: Interaction[] = [{ name: startName, start: true, actions: [] }];
  for (const node of nodes) {
    const name = interactionOf.get(node);
    if (!name) continue;
    const step: Action[] = node === fallbackNode ? [] : [{ type: 'setVariable', name: STORY_STEP, value: name }];
    interactions.push({ name, ...(node === fallbackNode ? { fallback: true } : {}), actions: [...step, ...actionsFrom(node, 0)] });
  }
  if (!fallbackNode && 'utter_default' in responses)
    interactions.push({ name: names.name('Fallback', `${domainFile}: $.responses.utter_default`, 'Fallback'), fallback: true, actions: say('utter_default') ?? [] });
  for (const response of Object.keys(responses)) {
    if (!said.has(response)) report.skip(`${domainFile}: $.responses.${response}`, `the response ${response.slice(0, 60)}`, 'no rule or story says it: use it in an interaction by hand');
  }
  for (const action of listAt(domain.actions)) {
    const name = textAt(action);
    if (name && !reportedActions.has(name) && !(name in forms))
      report.skip(`${domainFile}: $.actions`, `the custom action ${name.slice(0, 60)}`, 'it runs code on the Rasa action server: rebuild it with callApi steps');
  }

  const triggers: Trigger[] = [];
  for (const [rasaIntent, intent] of parsed.intentNames) {
    if (rasaIntent === 'nlu_fallback' || !nodes.some((n) => n.intent === rasaIntent && interactionOf.has(n))) continue;
    triggers.push({ intent, actions: triggerActions(rasaIntent, nodes, interactionOf) });
  }
  for (const node of nodes)
    if (node.intent !== 'nlu_fallback' && !parsed.intentNames.has(node.intent))
      report.skip(node.path, `the intent "${node.intent.slice(0, 60)}" of a story`, 'the NLU data has no two examples of it: nothing can reach this turn');
  const nlpLanguage = (NLP_LANGUAGES as readonly string[]).includes(language.slice(0, 2)) ? language.slice(0, 2) : 'en';
  const bot = oneBehaviourBot({
    name: 'Rasa assistant',
    interactions,
    triggers,
    variables: { [STORY_STEP]: '', ...variables },
    nlp: { language: nlpLanguage, intents: parsed.intents, ...(parsed.entities.length > 0 ? { entities: parsed.entities } : {}) },
  });
  return { bot, report: report.finish(bot) };
}

/** An intent's trigger: the turn that follows the current one, else the turn it starts (or its first turn), else the fallback. */
function triggerActions(intent: string, nodes: TurnNode[], interactionOf: Map<TurnNode, string>): Action[] {
  const top = nodes.find((n) => n.intent === intent && n.parent?.intent === '' && interactionOf.has(n));
  const deeper = nodes.filter((n) => n.intent === intent && n.parent !== null && n.parent.intent !== '' && interactionOf.has(n) && interactionOf.has(n.parent));
  // out of its story, an intent still gets the answer its first story gives (Rasa's policies would
  // most likely pick that one too), rather than the fallback
  const anywhere = top ?? deeper[0];
  let chain: Action[] = anywhere ? [goToInteraction(interactionOf.get(anywhere)!)] : [{ type: 'goTo', mode: 'fallback' }];
  // the turn taken anywhere needs no test of its own
  for (const node of deeper.filter((n) => n !== anywhere).reverse()) {
    chain = [{ type: 'variableSwitch', variable: STORY_STEP, criteria: 'equals', value: interactionOf.get(node.parent!)!, then: [goToInteraction(interactionOf.get(node)!)], else: chain }];
  }
  return chain;
}

function checkVersion(version: unknown, file: string): void {
  const text = textAt(version);
  if (text === null) return;
  const major = Number(text.split('.')[0]);
  if (!Number.isInteger(major) || major < 2 || major > 3)
    throw new ImportRefusal('IMPORT_UNSUPPORTED', `${file} is in Rasa's format version ${JSON.stringify(text.slice(0, 20))}: versions 2.x and 3.x are read.`, {
      File: file,
      Path: '$.version',
      Version: text.slice(0, 20),
    });
}

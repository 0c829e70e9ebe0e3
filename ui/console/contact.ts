// The contact panel beside a conversation: what the conversation knows about the person. Their
// e-mail and phone first (as links), then channel, tags, privacy flags and the bot's variables;
// the variables the engine keeps for the flow (`last_intent_score`, `goto_source_*`, …) are folded
// under "Technical details", since they say how the bot got here, not who the person is.
// Values are shown as text, never markup (the rule is docs/decisions.md "Console inbox"). An admin
// also gets "Export this contact's data" (governance.md "Personal-data export").
import { el } from './render';
import type { Contact } from './types';

/**
 * The engine's own variables: bot-format.md's system variables, what a turn records (last_intent,
 * last_intent_score) and what actions report (ai_status, kb_status, kb_sources). By name, not by a
 * `last_` prefix: `last_name` is the person's surname (docs/channels.md "Name and e-mail").
 */
const ENGINE_VARIABLES = new Set([
  'user_id',
  'channel',
  'creation_date',
  'conversation_share_url',
  'last_user_text',
  'last_command',
  'last_intent',
  'last_intent_score',
  'api_status',
  'ai_status',
  'kb_status',
  'kb_sources',
]);
/** `goto_source_behaviour`, `goto_source_interaction` and any later `goto_source_*`. */
const ENGINE_PREFIXES = ['goto_source_'];

export const isTechnical = (name: string) => ENGINE_VARIABLES.has(name) || ENGINE_PREFIXES.some((p) => name.startsWith(p));

/** As docs/channels.md says: an `email` that is not something@somewhere is not shown as one. */
const EMAIL = /^[^\s@]+@[^\s@]+$/;
/** A phone number as people write one: digits with spaces, dots, dashes, brackets, a leading +. */
const PHONE = /^\+?[\d\s().-]{5,32}$/;

function link(href: string, text: string) {
  const a = el('a', 'text-link', text);
  a.href = href;
  return a;
}

function variableList(variables: Contact['Variables']) {
  const list = el('dl', 'contact-variables');
  for (const v of variables) list.append(el('dt', '', v.Name), el('dd', '', v.Value));
  return list;
}

/** The panel's content: the person's list, the folded technical details, and for an admin the export of everything held. */
export function renderContact(contact: Contact, exportHref?: string) {
  const list = el('dl', 'contact-list');
  const add = (term: string, ...value: (Node | string)[]) => {
    const dd = el('dd');
    dd.append(...value);
    list.append(el('dt', '', term), dd);
  };
  const value = (name: string) => contact.Variables.find((v) => v.Name === name)?.Value.trim() ?? '';
  const email = value('email');
  const phone = value('phone');
  const shown = new Set<string>();
  if (EMAIL.test(email)) {
    add('E-mail', link(`mailto:${email}`, email));
    shown.add('email');
  }
  if (PHONE.test(phone) && phone.replace(/\D/g, '').length >= 5) {
    add('Phone', link(`tel:${phone.replace(/[^\d+]/g, '')}`, phone));
    shown.add('phone');
  }
  add('Channel', contact.Channel);
  const tags = el('span', 'tags');
  for (const tag of contact.Tags) tags.append(el('span', 'tag', tag));
  add('Tags', contact.Tags.length ? tags : 'none');
  add('Privacy', contact.PrivacyFlags.length ? contact.PrivacyFlags.map((f) => `${f.Name}: ${f.Enabled ? 'yes' : 'no'}`).join(', ') : 'no flags set');
  const own = contact.Variables.filter((v) => !isTechnical(v.Name) && !shown.has(v.Name));
  const technical = contact.Variables.filter((v) => isTechnical(v.Name));
  add('Variables', own.length ? variableList(own) : 'none');
  const panel = document.createDocumentFragment();
  panel.append(list);
  if (technical.length) {
    const details = el('details', 'contact-technical');
    details.append(el('summary', '', 'Technical details'), variableList(technical));
    panel.append(details);
  }
  if (exportHref) {
    // a download (JSON), not a page: the browser saves it with the server's file name
    const download = link(exportHref, "Export this contact's data");
    download.setAttribute('download', '');
    download.classList.add('contact-export');
    const line = el('p', 'contact-export-line');
    line.append(download);
    panel.append(line);
  }
  return panel;
}

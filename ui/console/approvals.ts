// Agents' tool calls waiting for an operator (agents.md "Tools", approvals): under the open
// conversation's transcript a card per pending call (tool, arguments as pretty JSON, who asked and
// when) with Approve / Edit / Reject. Cards are kept across the conversation's redraws (a live
// event must not wipe arguments being edited); a decided card says what became of it and loses its
// buttons. Everything is text (textContent): the arguments are the model's words, never markup.
import { ApiError } from '../shared/api-client';
import { $, api, attempt, say } from './api';
import { el } from './render';

export interface Approval {
  ApprovalId: string;
  UserId: string;
  Tool: string;
  Arguments: Record<string, unknown>;
  Status: 'pending' | 'approved' | 'rejected';
  At: string;
  DecidedBy?: string;
  Reason?: string;
}

/** the route's most: pending ones come first, so a list cut short leaves out decided ones */
const LIST_LIMIT = 200;
/** the server's bounds (agents.md): a reason of 1000 characters, arguments of 16 KiB of JSON */
const MAX_REASON = 1000;
const MAX_ARGUMENTS = 16 * 1024;

/**
 * One conversation's approvals, pending first; none when they cannot be read (a role that may
 * not). Asked for by conversation: the bot's list is cut at LIST_LIMIT, and a busy bot's other
 * conversations could fill it.
 */
export function readApprovals(botId: string, userId: string): Promise<Approval[]> {
  return api.call<{ Result: Approval[] }>('GET', `/bots/${encodeURIComponent(botId)}/approvals?limit=${LIST_LIMIT}&userid=${encodeURIComponent(userId)}`).then(
    (list) => list.Result,
    () => [],
  );
}

interface Card {
  node: HTMLElement;
  /** what the card says once decided (by this operator or, found on a redraw, by someone else) */
  outcome: string | null;
  /** a decision of this page is on its way: its answer, not a redraw, says what became of it */
  deciding: boolean;
}
/** the open conversation's cards by ApprovalId, and whose they are */
let cards = new Map<string, Card>();
let cardsOf = '';

const decidedElsewhere = (a: Approval) => `${a.Status === 'approved' ? 'Approved' : 'Rejected'} by ${a.DecidedBy === 'api' ? 'the account API' : (a.DecidedBy ?? 'someone else')}`;

/** Draws the cards of conversation `userId` of `botId` from the bot's list; `reread`: reads the conversation and the list again. */
export function renderApprovals(botId: string, userId: string, approvals: Approval[], reread: () => Promise<unknown>) {
  const key = `${botId}\n${userId}`;
  if (key !== cardsOf) cards = new Map();
  cardsOf = key;
  for (const a of approvals) {
    if (a.UserId !== userId) continue;
    const card = cards.get(a.ApprovalId);
    if (!card && a.Status === 'pending') cards.set(a.ApprovalId, drawCard(botId, a, reread));
    else if (card && !card.outcome && !card.deciding && a.Status !== 'pending') settle(card, decidedElsewhere(a));
  }
  const box = $('approvals');
  box.hidden = cards.size === 0;
  const wanted = [...cards.values()].map((c) => c.node);
  // put back only when changed: a node moved loses the focus (a field being edited, a decision said)
  if (wanted.length !== box.children.length || wanted.some((node, i) => box.children[i] !== node)) box.replaceChildren(...wanted);
}

/** Share pages and closed conversations show no cards. */
export function clearApprovals() {
  cards = new Map();
  cardsOf = '';
  $('approvals').replaceChildren();
  $('approvals').hidden = true;
}

/** The card says `outcome` and loses its controls. */
function settle(card: Card, outcome: string) {
  card.outcome = outcome;
  // the focus was on the card's buttons (or already lost with them): it goes to what the card now
  // says, at once; focus elsewhere on the page (the reply box) is left where it is
  const active = document.activeElement;
  const hadFocus = !active || active === document.body || card.node.contains(active);
  for (const part of card.node.querySelectorAll('.approval-actions, form')) part.remove();
  const said = card.node.querySelector<HTMLElement>('.approval-outcome')!;
  said.textContent = outcome;
  said.hidden = false;
  card.node.classList.add('approval-decided', outcome.startsWith('Rejected') ? 'approval-rejected' : 'approval-approved');
  if (hadFocus && card.node.isConnected) said.focus();
}

let drawn = 0;

function drawCard(botId: string, a: Approval, reread: () => Promise<unknown>): Card {
  const id = `approval-${++drawn}`;
  const node = el('article', 'approval');
  node.setAttribute('aria-labelledby', `${id}-title`);
  const title = el('h3', 'approval-title', `Approval needed: ${a.Tool}`);
  title.id = `${id}-title`;
  const at = el('time', '', new Date(a.At).toLocaleString());
  at.dateTime = a.At;
  const asked = el('p', 'approval-asked hint', '');
  asked.append('Asked for ', el('span', '', a.UserId), ' · ', at);
  const args = el('pre', 'approval-args', JSON.stringify(a.Arguments, null, 2));
  args.setAttribute('aria-label', 'Arguments');
  const outcome = el('p', 'approval-outcome', '');
  outcome.hidden = true;
  outcome.tabIndex = -1;

  const card: Card = { node, outcome: null, deciding: false };
  const path = (verb: string) => `/bots/${encodeURIComponent(botId)}/approvals/${encodeURIComponent(a.ApprovalId)}/${verb}`;
  /** POSTs the decision; true when made. A 409: someone decided first, the card says who once read again. */
  const decide = async (verb: 'approve' | 'reject', body: object, said: string) => {
    node.querySelectorAll('button').forEach((b) => (b.disabled = true));
    card.deciding = true;
    try {
      const made = await api.call<Approval>('POST', path(verb), body);
      // the arguments the call was made with (edited ones, when they were)
      args.textContent = JSON.stringify(made.Arguments, null, 2);
      settle(card, said);
      outcome.focus();
      say(`${said}: ${a.Tool} for ${a.UserId}.`);
    } catch (error) {
      node.querySelectorAll('button').forEach((b) => (b.disabled = false));
      if (!(error instanceof ApiError) || error.code !== 'APPROVAL_DECIDED') throw error;
      say('Someone else decided this call already; it is shown as they decided.', true);
    } finally {
      card.deciding = false;
    }
    await reread();
    // the buttons went with the decision: the focus goes to what the card says (not lost to the page)
    if (card.outcome && !node.contains(document.activeElement)) outcome.focus();
  };

  const actions = el('div', 'approval-actions');
  actions.setAttribute('role', 'group');
  actions.setAttribute('aria-label', `Decide on ${a.Tool}`);
  const button = (text: string, className: string) => Object.assign(el('button', className, text), { type: 'button' as const });
  const approve = button('Approve', '');
  const edit = button('Edit', 'secondary');
  const reject = button('Reject', 'danger');
  actions.append(approve, edit, reject);

  const editor = editForm(
    id,
    a,
    (args) => decide('approve', { Arguments: args }, 'Approved by you'),
    () => edit.focus(),
  );
  const refusal = rejectForm(
    id,
    (reason) => decide('reject', reason ? { Reason: reason } : {}, reason ? `Rejected by you: ${reason}` : 'Rejected by you'),
    () => reject.focus(),
  );
  approve.addEventListener('click', () => void attempt(() => decide('approve', {}, 'Approved by you')));
  edit.addEventListener('click', () => open(editor, refusal));
  reject.addEventListener('click', () => open(refusal, editor));
  node.append(title, asked, args, actions, editor, refusal, outcome);
  return card;
}

/**
 * Shows `form` (the other one goes) and puts the focus in its field, with the whole form in sight:
 * the box of cards scrolls, and on a phone it showed the field with its button below the fold.
 */
function open(form: HTMLFormElement, other: HTMLFormElement) {
  other.hidden = true;
  form.hidden = false;
  form.querySelector<HTMLElement>('textarea, input')!.focus({ preventScroll: true });
  form.scrollIntoView({ block: 'nearest' });
}

/** A form's Cancel button and Escape key: the form goes, the focus back to what opened it. */
function cancellable(form: HTMLFormElement, back: () => void) {
  const cancel = Object.assign(el('button', 'secondary', 'Cancel'), { type: 'button' as const });
  const close = () => {
    form.hidden = true;
    back();
  };
  cancel.addEventListener('click', close);
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  });
  return cancel;
}

/** A hidden form: `field` labelled `label`, what `below` adds under it, then `submit` and Cancel. */
function fieldForm(fieldId: string, label: string, field: HTMLTextAreaElement | HTMLInputElement, submit: HTMLButtonElement, back: () => void, below: HTMLElement[] = []) {
  const form = el('form', 'approval-form');
  form.hidden = true;
  const caption = el('label', '', label);
  caption.htmlFor = fieldId;
  field.id = fieldId;
  field.className = 'approval-field';
  submit.type = 'submit';
  const row = el('div', 'approval-actions');
  row.append(submit, cancellable(form, back));
  form.append(caption, field, ...below, row);
  return form;
}

/** The arguments as JSON in a textarea; what is not a JSON object is said under it before anything is sent. */
function editForm(id: string, a: Approval, send: (args: Record<string, unknown>) => Promise<void>, back: () => void) {
  const field = el('textarea');
  field.rows = 5;
  field.maxLength = MAX_ARGUMENTS;
  field.spellcheck = false;
  field.value = JSON.stringify(a.Arguments, null, 2);
  const problem = el('p', 'error approval-problem');
  problem.id = `${id}-args-problem`;
  problem.setAttribute('aria-live', 'polite');
  field.setAttribute('aria-describedby', problem.id);
  const wrong = (text: string) => {
    problem.textContent = text;
    field.setAttribute('aria-invalid', String(text !== ''));
    if (text) field.focus();
  };
  const form = fieldForm(`${id}-args`, 'Arguments (JSON)', field, el('button', '', 'Approve with these arguments'), back, [problem]);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    let args: unknown;
    try {
      args = JSON.parse(field.value);
    } catch {
      return wrong('This is not valid JSON: check the quotes, commas and braces.');
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return wrong('The arguments must be one JSON object, like {"name": "value"}.');
    wrong('');
    void attempt(async () => {
      try {
        await send(args as Record<string, unknown>);
      } catch (error) {
        // the tool's parameters refuse them: said at the field, nothing decided
        if (error instanceof ApiError && error.code === 'APPROVAL_ARGUMENTS_INVALID') return wrong(`The tool does not accept these arguments. ${error.message}`);
        throw error;
      }
    });
  });
  return form;
}

/** The optional reason told to the model with the refusal. */
function rejectForm(id: string, send: (reason: string) => Promise<void>, back: () => void) {
  const field = el('input');
  field.type = 'text';
  field.dir = 'auto';
  field.maxLength = MAX_REASON;
  const form = fieldForm(`${id}-reason`, 'Reason (optional, told to the bot)', field, el('button', 'danger', 'Reject the call'), back);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void attempt(() => send(field.value.trim()));
  });
  return form;
}

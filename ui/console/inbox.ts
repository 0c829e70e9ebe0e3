// The console as an inbox: resolve / reopen, snooze, transfer to a colleague or a team, the
// account's teams, and (on a phone) the contact panel shown on demand. Console mode only.
import { $ } from './api';
import { el } from './render';
import type { Summary, Teams } from './types';
import type { Host } from './workspace';

let host: Host;

/** POSTs an inbox action for the open conversation, then says what happened. */
function act<T>(action: string, payload: unknown, said: (r: T) => string) {
  const path = host.conversationPath();
  if (!path) return;
  void host.attempt(async () => {
    const result = await host.call<T>('POST', `${path}/${action}`, payload);
    await host.refresh();
    host.say(said(result));
  });
}

const name = () => $('conversation-title').textContent;

export function initInbox(h: Host) {
  host = h;
  $('resolve').addEventListener('click', () => act('resolve', {}, () => `${name()}: resolved. A new message from them opens it again.`));
  $('reopen').addEventListener('click', () => act('reopen', {}, () => `${name()}: open again.`));
  for (const button of document.querySelectorAll('.snooze')) {
    const minutes = Number((button as HTMLElement).dataset.minutes);
    button.addEventListener('click', () => {
      $('more-menu').open = false;
      act<{ Status: 'snoozed'; SnoozedUntil: string }>('snooze', { Minutes: minutes }, (r) => `${name()}: snoozed until ${new Date(r.SnoozedUntil).toLocaleString()}, or until they write.`);
    });
  }
  $('contact-toggle').addEventListener('click', () => {
    document.body.classList.toggle('show-contact');
    if (document.body.classList.contains('show-contact')) $('contact-title').scrollIntoView();
  });
  // A note goes with Enter (Shift+Enter: a new line), as a reply does.
  $('note-text').addEventListener('keydown', (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      $('note-form').requestSubmit();
    }
  });
  $('transfer-open').addEventListener('click', () => void host.attempt(openTransfer));
  $('transfer-close').addEventListener('click', () => $('transfer-dialog').close());
  $('transfer-form').addEventListener('submit', transfer);
  $('teams-manage').addEventListener('click', () => void host.attempt(openTeams));
  $('teams-close').addEventListener('click', () => $('teams-dialog').close());
  $('team-form').addEventListener('submit', addTeam);
}

/** The buttons that follow the conversation's inbox status. */
export function renderInbox(c: Summary) {
  const resolved = c.Status === 'resolved';
  $('resolve').hidden = resolved;
  $('reopen').hidden = !resolved;
  const where = [c.Team ? `Team ${c.Team.Name}` : '', c.Status === 'snoozed' ? `Snoozed until ${new Date(c.SnoozedUntil!).toLocaleString()}` : resolved ? 'Resolved' : ''];
  const assignee = $('assignee');
  assignee.textContent = [assignee.textContent, ...where].filter(Boolean).join(' · ');
}

async function openTransfer() {
  const { Teams, Operators } = await host.call<Teams>('GET', '/teams');
  const select = $('transfer-to');
  const group = (label: string, options: Array<[string, string]>) => {
    const g = el('optgroup');
    g.label = label;
    g.append(...options.map(([value, text]) => Object.assign(document.createElement('option'), { value, textContent: text })));
    return g;
  };
  select.replaceChildren(
    group(
      'Colleagues',
      Operators.map((o): [string, string] => [`operator:${o.OperatorId}`, `${o.Name}${o.Online ? ' (online)' : ''}`]),
    ),
    ...(Teams.length
      ? [
          group(
            'Teams',
            Teams.map((t): [string, string] => [`team:${t.TeamId}`, `${t.Name} (${t.Members.filter((m) => m.Online).length} online)`]),
          ),
        ]
      : []),
  );
  $('transfer-error').textContent = '';
  $('more-menu').open = false;
  $('transfer-dialog').showModal();
  select.focus();
}

async function transfer(event: Event) {
  event.preventDefault();
  const path = host.conversationPath();
  const [kind, id] = String($('transfer-to').value).split(':');
  if (!path || !id) return;
  try {
    const result = await host.call<Pick<Summary, 'AssignedTo' | 'Team'>>('POST', `${path}/transfer`, kind === 'team' ? { TeamId: Number(id) } : { OperatorId: id });
    $('transfer-dialog').close();
    await host.refresh();
    const to = [result.Team?.Name, result.AssignedTo?.Name].filter(Boolean).join(', ');
    host.say(`${name()}: transferred to ${to}${result.Team && !result.AssignedTo ? ' (nobody of the team is online: it waits there)' : ''}.`);
    $('transcript').focus();
  } catch (error) {
    $('transfer-error').textContent = (error as Error).message;
  }
}

async function openTeams() {
  await drawTeams();
  $('team-error').textContent = '';
  $('teams-dialog').showModal();
  $('team-name').focus();
}

async function drawTeams() {
  const { Teams, Operators } = await host.call<Teams>('GET', '/teams');
  $('teams-list').replaceChildren(
    ...Teams.map((t) => {
      const item = el('li', 'canned-item');
      const remove = el('button', 'danger', 'Delete');
      remove.type = 'button';
      remove.setAttribute('aria-label', `Delete team ${t.Name}`);
      remove.addEventListener(
        'click',
        () =>
          void host.attempt(async () => {
            await host.call('DELETE', `/teams/${t.TeamId}`);
            await drawTeams();
          }),
      );
      item.append(el('strong', '', t.Name), el('span', 'canned-text', t.Members.map((m) => m.Name).join(', ') || 'no members'), remove);
      return item;
    }),
  );
  const legend = $('team-members').querySelector('legend')!;
  $('team-members').replaceChildren(
    legend,
    ...Operators.map((o) => {
      const label = el('label', 'team-member');
      const box = el('input');
      box.type = 'checkbox';
      box.value = o.OperatorId;
      label.append(box, ` ${o.Name}`);
      return label;
    }),
  );
}

async function addTeam(event: Event) {
  event.preventDefault();
  const OperatorIds = [...$('team-members').querySelectorAll<HTMLInputElement>('input:checked')].map((b) => b.value);
  try {
    await host.call('POST', '/teams', { Name: $('team-name').value.trim(), OperatorIds });
    $('team-name').value = '';
    $('team-error').textContent = '';
    await drawTeams();
  } catch (error) {
    $('team-error').textContent = (error as Error).message;
  }
}

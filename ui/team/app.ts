// The Team page (/console/team, issue 37 item 5): every signed-in operator sees the account's
// teammates; an admin invites one (by e-mail and role: the answer is a one-time link, e-mailed
// when the server has SMTP, else for the admin to send), changes roles, sends a new link, removes. Opened through an invitation link
// (/console/team#invite=<token>) it asks the new teammate for their password instead.
import { ApiError, consoleApi, isSignedOut, signedIn, type Me } from '../shared/api-client';
import { drawConsoleNav } from '../shared/console-nav';

interface Teammate {
  OperatorId: string;
  Email: string;
  Name: string;
  Role: 'agent' | 'designer' | 'admin';
  Invited: boolean;
}
interface Invitation {
  Teammate: Teammate;
  InviteUrl: string;
  Emailed: boolean;
}

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const ROLE_WORDS: Record<Teammate['Role'], string> = { agent: 'Agent', designer: 'Designer', admin: 'Admin' };

const call = <T = unknown>(method: string, path: string, body?: unknown) => consoleApi.call<T>(method, path, body);

function status(text: string, error = false): void {
  $('status').textContent = text;
  $('status').classList.toggle('error', error);
}

let me: Me | null = null;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function row(t: Teammate, admin: boolean): HTMLTableRowElement {
  const name = el('td', {}, t.Name);
  if (t.Invited) name.append(el('span', { className: 'tag' }, 'invited'));
  const role = el('td');
  if (admin && t.OperatorId !== me?.OperatorId) {
    const select = el('select', { id: `role-${t.OperatorId}` });
    select.setAttribute('aria-label', `Role of ${t.Name}`);
    for (const r of Object.keys(ROLE_WORDS) as Teammate['Role'][]) select.append(el('option', { value: r, selected: r === t.Role }, ROLE_WORDS[r]));
    select.addEventListener(
      'change',
      () =>
        void act(async () => {
          await call('PATCH', `/team/${t.OperatorId}`, { Role: select.value });
          return `${t.Name} is now ${ROLE_WORDS[select.value as Teammate['Role']].toLowerCase()}.`;
        }),
    );
    role.append(select);
  } else role.append(ROLE_WORDS[t.Role] + (t.OperatorId === me?.OperatorId ? ' (you)' : ''));
  const actions = el('div', { className: 'actions' });
  if (admin && t.OperatorId !== me?.OperatorId) {
    if (t.Invited) {
      const again = el('button', { type: 'button', className: 'quiet' }, 'New link');
      again.setAttribute('aria-label', `New link for ${t.Name}`);
      again.addEventListener(
        'click',
        () =>
          void act(async () => {
            const answer = await call<Invitation>('POST', `/team/${t.OperatorId}/invite`);
            showLink(answer);
            return `A new link for ${t.Name}${answer.Emailed ? `, e-mailed to ${t.Email}` : ''}: the old one no longer works.`;
          }),
      );
      actions.append(again);
    }
    const remove = el('button', { type: 'button', className: 'danger' }, 'Remove');
    remove.setAttribute('aria-label', `Remove ${t.Name}`);
    remove.addEventListener('click', () => {
      if (!confirm(`Remove ${t.Name} (${t.Email}) from the team? They can no longer sign in.`)) return;
      void act(async () => {
        await call('DELETE', `/team/${t.OperatorId}`);
        return `${t.Name} was removed.`;
      });
    });
    actions.append(remove);
  }
  return el('tr', {}, name, el('td', {}, t.Email), role, el('td', {}, actions));
}

/** Runs an admin's action; what it resolves to is said in the status line. */
async function act(work: () => Promise<string>): Promise<void> {
  try {
    status(await work());
  } catch (e) {
    status((e as Error).message, true);
  }
  await load();
}

/** The link beside the form, and whether the server e-mailed it or the admin must send it. */
function showLink({ InviteUrl, Emailed, Teammate: t }: Invitation): void {
  $('invite-link').hidden = false;
  $('invite-mailed').textContent = Emailed ? `E-mail sent to ${t.Email} with this link.` : 'Send this link yourself: no e-mail went out.';
  $('invite-mailed').classList.toggle('sent', Emailed);
  $<HTMLInputElement>('invite-url').value = InviteUrl;
  $<HTMLInputElement>('invite-url').select();
}

async function load(): Promise<void> {
  const { Teammates } = await call<{ Teammates: Teammate[] }>('GET', '/team');
  $('team-rows').replaceChildren(...Teammates.map((t) => row(t, me?.Role === 'admin')));
}

async function join(token: string): Promise<void> {
  $('join').hidden = false;
  $('join-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      try {
        const { Email } = await call<{ Email: string }>('POST', '/team/join', { Token: token, Password: $<HTMLInputElement>('join-password').value });
        history.replaceState(null, '', location.pathname);
        $('join').hidden = true;
        status(`Welcome! Sign in as ${Email} with your new password.`);
        $('notice').hidden = false;
        $('notice-title').textContent = 'You are in the team';
        const signIn = el('a', { href: '/console' }, 'Sign in to the console');
        $('notice-text').replaceChildren(signIn, ` with ${Email} and the password you just chose.`);
      } catch (e) {
        $('join-error').textContent = e instanceof ApiError && e.code === 'INVALID_REQUEST' ? 'The password needs at least 8 characters.' : (e as Error).message;
      }
    })();
  });
  $('join-password').focus();
}

async function start(): Promise<void> {
  drawConsoleNav($('console-nav'), 'team');
  const token = new URLSearchParams(location.hash.slice(1)).get('invite');
  if (token) return join(token);
  try {
    me = await signedIn();
  } catch (e) {
    if (isSignedOut(e)) return void ($('notice').hidden = false);
    return status((e as Error).message, true);
  }
  drawConsoleNav($('console-nav'), 'team', { role: me.Role });
  $('workspace').hidden = false;
  $('invite').hidden = me.Role !== 'admin';
  $('invite-form').addEventListener('submit', (event) => {
    event.preventDefault();
    $('invite-error').textContent = '';
    void (async () => {
      try {
        const name = $<HTMLInputElement>('invite-name').value.trim();
        const answer = await call<Invitation>('POST', '/team', {
          Email: $<HTMLInputElement>('invite-email').value.trim(),
          ...(name ? { Name: name } : {}),
          Role: $<HTMLSelectElement>('invite-role').value,
        });
        showLink(answer);
        status(answer.Emailed ? `${answer.Teammate.Name} is invited: e-mail sent to ${answer.Teammate.Email}.` : `${answer.Teammate.Name} is invited: send them the link below.`);
        $<HTMLFormElement>('invite-form').reset();
        await load();
      } catch (e) {
        $('invite-error').textContent = e instanceof ApiError && e.code === 'CONFLICT' ? 'Someone on the team already has this e-mail address.' : (e as Error).message;
      }
    })();
  });
  $('invite-copy').addEventListener('click', () => {
    navigator.clipboard.writeText($<HTMLInputElement>('invite-url').value).then(
      () => status('Link copied.'),
      () => status('Select the link and copy it.', true),
    );
  });
  await load();
}

void start();

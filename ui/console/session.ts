// Signing in and out (console mode): the sign-in form, and the workspace shown to a signed-in
// operator with what their role opens.
import { $, api, attempt, onSessionLost, say } from './api';
import { refreshList, setOpened } from './listing';
import { focusEntry, setMe } from './list';
import { listen, stopListening } from './live';
import { startWorkspace } from './workspace';

export function showSignIn(message: string = '') {
  stopListening();
  setOpened(null);
  $('workspace').hidden = true;
  $('who').hidden = true;
  $('signin').hidden = false;
  $('signin-error').textContent = message;
  $('signin-email').focus();
}

export async function showWorkspace(me: any) {
  $('signin').hidden = true;
  $('workspace').hidden = false;
  $('who').hidden = false;
  $('who-name').textContent = `${me.Name} <${me.Email}>`;
  // Agents work on conversations only; the server refuses them the designer, knowledge, broadcasts
  // and analytics (the 'design' area) whatever is shown, so no link leads them to a refusal.
  $('designer-link').hidden = me.Role !== 'designer' && me.Role !== 'admin';
  for (const link of ['knowledge-link', 'broadcasts-link', 'analytics-link', 'team-link']) $(link).hidden = $('designer-link').hidden;
  // Teams decide who gets which conversations: only an admin changes them (agents transfer to one).
  $('teams-manage').hidden = me.Role !== 'admin';
  say('');
  setMe(me.OperatorId);
  await Promise.all([refreshList(), startWorkspace(me)]);
  listen('/console/api/events');
  // The sign-in form is gone: focus would fall back to the page; put it where work starts.
  const first = (document.querySelector('.conversation-open') as HTMLElement | null);
  if (first) focusEntry(first);
  else $('list-title').focus();
}

export function initSession() {
  onSessionLost(showSignIn);
  $('signin-form').addEventListener('submit', async (event: Event) => {
    event.preventDefault();
    $('signin-error').textContent = '';
    const account = $('signin-account').value.trim();
    try {
      const me = await api.call('POST', '/login', { Email: $('signin-email').value, Password: $('signin-password').value, ...(account ? { AccountId: account } : {}) });
      $('signin-password').value = '';
      await showWorkspace(me);
    } catch (error) {
      $('signin-error').textContent = (error as Error).message;
    }
  });
  $('logout').addEventListener('click', () =>
    attempt(async () => {
      await api.call('POST', '/logout', {});
      showSignIn('Signed out.');
    }),
  );
}

// Signing in and out (console mode): the sign-in form, and the workspace shown to a signed-in
// operator with what their role opens.
import { $, api, attempt, onSessionLost, say } from './api';
import { refreshList, setOpened } from './listing';
import { focusEntry, setMe } from './list';
import { listen, stopListening } from './live';
import { startWorkspace } from './workspace';
import type { Me } from '../shared/api-client';
import { drawConsoleNav } from '../shared/console-nav';
import { askEmail, initSignInSteps, ssoFailure, submitSignIn } from './sign-in';

export function showSignIn(message: string = '') {
  stopListening();
  setOpened(null);
  $('workspace').hidden = true;
  $('who').hidden = true;
  $('signin').hidden = false;
  askEmail();
  $('signin-progress').textContent = '';
  // a single sign-on that came back failed says so, whatever else brought the form up
  $('signin-error').textContent = ssoFailure() || message;
  $('signin-email').focus();
}

export async function showWorkspace(me: Me) {
  $('signin').hidden = true;
  $('workspace').hidden = false;
  $('who').hidden = false;
  // The name alone keeps the header on one line; the e-mail is there on hover.
  $('who-name').textContent = me.Name;
  $('who-name').title = me.Email;
  // The links every console page has; agents get the conversations only (console-nav.ts).
  drawConsoleNav($('console-nav'), 'conversations', { role: me.Role });
  // Teams decide who gets which conversations: only an admin changes them (agents transfer to one).
  $('teams-manage').hidden = me.Role !== 'admin';
  say('');
  setMe(me.OperatorId, me.Role);
  await Promise.all([refreshList(), startWorkspace(me)]);
  listen('/console/api/events');
  // The sign-in form is gone: focus would fall back to the page; put it where work starts.
  const first = document.querySelector('.conversation-open') as HTMLElement | null;
  if (first) focusEntry(first);
  else $('list-title').focus();
}

export function initSession() {
  onSessionLost(showSignIn);
  initSignInSteps();
  const withPassword = async () => {
    const account = $('signin-account').value.trim();
    const me = await api.call<Me>('POST', '/login', { Email: $('signin-email').value, Password: $('signin-password').value, ...(account ? { AccountId: account } : {}) });
    $('signin-password').value = '';
    await showWorkspace(me);
  };
  $('signin-form').addEventListener('submit', async (event: Event) => {
    event.preventDefault();
    $('signin-error').textContent = '';
    try {
      await submitSignIn(withPassword);
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

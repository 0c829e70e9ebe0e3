// The console's sign-in form (governance.md "Single sign-on"): the e-mail first. One whose domain
// an account signs in with single sign-on goes to its identity provider; any other gets the
// password field. A sign-in the provider's round trip could not finish comes back here as
// `?sso_error=<Code>`, shown as a plain sentence and taken out of the address.
import { apiClient } from '../shared/api-client';
import { $ } from './api';

const sso = apiClient({ base: '/console/sso' });

/** What each failure of a single sign-on says to the person (the Codes of docs/errors.md). */
const SSO_MESSAGES: Record<string, string> = {
  SSO_NOT_CONFIGURED: 'This e-mail address does not sign in with single sign-on. Sign in with your password.',
  SSO_DISCOVERY_FAILED: "Your company's sign-in service could not be reached. Try again in a moment, or ask your administrator.",
  SSO_STATE_INVALID: 'This sign-in took too long or was already used. Start again.',
  SSO_PROVIDER_REFUSED: "Your company's sign-in service did not sign you in. Start again, or ask your administrator.",
  SSO_TOKEN_INVALID: "Your company's sign-in service answered in a way we cannot trust, so you are not signed in. Ask your administrator.",
  SSO_EMAIL_REFUSED: 'Your company account has no verified e-mail address that may sign in here. Ask your administrator.',
  SSO_NO_OPERATOR: 'You have no console account here yet. Ask an administrator to add you.',
  RATE_LIMITED: 'Too many sign-ins are in progress. Try again in a few minutes.',
};
const FALLBACK = 'Single sign-on did not work. Start again, or ask your administrator.';

/** The message of a failed single sign-on the address came with (read and cleaned at load). */
let failure = (() => {
  const url = new URL(location.href);
  const code = url.searchParams.get('sso_error');
  if (code === null) return '';
  url.searchParams.delete('sso_error');
  history.replaceState(null, '', url.pathname + url.search + url.hash);
  return SSO_MESSAGES[code] ?? FALLBACK;
})();

/** That message, until the person tries again (the form may be drawn more than once meanwhile). */
export const ssoFailure = () => failure;

/**
 * Shows the password step, or (an SSO e-mail) hides it: such a person never types a password here.
 * The field is not `required`: the browser would stop an SSO e-mail's submit before the page
 * decides; an empty password is asked for by submitSignIn.
 */
function showPasswordPart(show: boolean) {
  $('signin-password-part').hidden = !show;
  $('signin-submit').textContent = show ? 'Sign in' : "Continue to your company's sign-in";
}

/** The form as first shown: e-mail first, the password beside it for everyone without SSO. */
export function askEmail() {
  showPasswordPart(true);
}

/** Whether an e-mail signs in with its company's provider (false for anything the server refuses to say). */
async function usesSso(email: string): Promise<boolean> {
  if (!email.includes('@')) return false;
  return (await sso.call<{ Sso: boolean }>('GET', `/check?email=${encodeURIComponent(email)}`)).Sso;
}

/**
 * The form's submit: the e-mail decides first. One of an SSO domain goes to its provider (the
 * password, if typed, is not sent anywhere); any other signs in with `signInWithPassword`.
 */
export async function submitSignIn(signInWithPassword: () => Promise<void>) {
  failure = '';
  const email = String($('signin-email').value).trim();
  if (await usesSso(email)) {
    showPasswordPart(false);
    $('signin-password').value = '';
    $('signin-progress').textContent = "Taking you to your company's sign-in…";
    location.assign(`/console/sso/start?email=${encodeURIComponent(email)}`);
    return;
  }
  if (!$('signin-password-part').hidden && $('signin-password').value !== '') return signInWithPassword();
  showPasswordPart(true);
  $('signin-error').textContent = 'Enter your password.';
  $('signin-password').focus();
}

/** Leaving the e-mail field already says which way it signs in. */
export function initSignInSteps() {
  $('signin-email').addEventListener('change', () => {
    // a failed check changes nothing: the submit asks again
    usesSso(String($('signin-email').value).trim()).then(
      (isSso) => showPasswordPart(!isSso),
      () => undefined,
    );
  });
  askEmail();
}

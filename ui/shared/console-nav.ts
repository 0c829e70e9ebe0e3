// The links between the console's pages, in one list that the headers of every console page
// (conversations, analytics, designer, knowledge, broadcasts, team) draw from, so that none forgets
// one (the knowledge page had no Broadcasts link, the analytics page only Conversations). The page
// shown is marked aria-current; the bot chosen on a page goes with the link, so moving from the
// designer to its knowledge keeps the same bot. Agents open conversations only: the other pages
// refuse them (403 ROLE_FORBIDDEN), so they get no link.
// Every page's header also has the same "Sign out" (issue 37): added beside the links once the
// page knows who is signed in (a page shown to nobody has nobody to sign out).
import { consoleApi } from './api-client';

export const CONSOLE_PAGES = [
  { page: 'conversations', href: '/console', label: 'Conversations', forAgents: true },
  { page: 'analytics', href: '/console/analytics', label: 'Analytics', forAgents: false },
  { page: 'designer', href: '/console/designer', label: 'Designer', forAgents: false },
  { page: 'knowledge', href: '/console/knowledge', label: 'Knowledge', forAgents: false },
  { page: 'broadcasts', href: '/console/broadcasts', label: 'Broadcasts', forAgents: false },
  { page: 'team', href: '/console/team', label: 'Team', forAgents: false },
  // the audit log is the admins' alone (governance.md): shown once the role is known to be admin
  { page: 'audit', href: '/console/audit', label: 'Audit', forAgents: false, forAdminsOnly: true },
] as const;

export type ConsolePage = (typeof CONSOLE_PAGES)[number]['page'];

export interface NavLink {
  page: ConsolePage;
  href: string;
  label: string;
  current: boolean;
}

/** The links a header shows on `current`, for `role` (all of them until the role is known), with the chosen bot. */
export function consoleLinks(current: ConsolePage, options: { botId?: string; role?: string } = {}): NavLink[] {
  return CONSOLE_PAGES.filter((p) => (p.forAgents || options.role !== 'agent') && (!('forAdminsOnly' in p) || options.role === 'admin')).map((p) => ({
    page: p.page,
    label: p.label,
    current: p.page === current,
    // the conversations list and the team have no bot of their own to open
    href: options.botId && p.page !== 'conversations' && p.page !== 'team' && p.page !== 'audit' ? `${p.href}?bot=${encodeURIComponent(options.botId)}` : p.href,
  }));
}

/** Ends the session (POST /console/api/logout) and goes to the console's sign-in form (a session already gone goes there too). */
export async function signOut(): Promise<void> {
  await consoleApi.call('POST', '/logout', {}).catch(() => undefined);
  location.assign('/console');
}

let knownRole: string | undefined;

/** Draws the links into `nav` (a `<nav aria-label="Console">` of the page's header); with a `role` (someone is signed in), the header's Sign out after it. */
export function drawConsoleNav(nav: HTMLElement, current: ConsolePage, given: { botId?: string; role?: string } = {}): void {
  // a page that redraws for a new bot without the role keeps the role it was told (the admins' Audit link stays)
  if (given.role) knownRole = given.role;
  const options = { ...given, role: given.role ?? knownRole };
  if (options.role && !nav.parentElement?.querySelector('#logout')) {
    const button = document.createElement('button');
    button.type = 'button';
    button.id = 'logout';
    button.textContent = 'Sign out';
    button.addEventListener('click', () => void signOut());
    nav.after(button);
  }
  nav.replaceChildren(
    ...consoleLinks(current, options).map((link) => {
      const a = document.createElement('a');
      a.href = link.href;
      a.id = `${link.page}-link`;
      a.textContent = link.label;
      if (link.current) a.setAttribute('aria-current', 'page');
      return a;
    }),
  );
}

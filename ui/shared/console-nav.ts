// The links between the console's pages, in one list that the headers of the analytics, designer,
// knowledge and broadcasts pages draw from, so that none forgets one (the knowledge page had no
// Broadcasts link, the analytics page only Conversations; the conversations page keeps the same
// links in its own markup). The page shown is marked aria-current; the bot chosen on a page goes
// with the link, so moving from the designer to its knowledge keeps the same bot. Agents open
// conversations only: the other pages refuse them (403 ROLE_FORBIDDEN), so they get no link.

export const CONSOLE_PAGES = [
  { page: 'conversations', href: '/console', label: 'Conversations', forAgents: true },
  { page: 'analytics', href: '/console/analytics', label: 'Analytics', forAgents: false },
  { page: 'designer', href: '/console/designer', label: 'Designer', forAgents: false },
  { page: 'knowledge', href: '/console/knowledge', label: 'Knowledge', forAgents: false },
  { page: 'broadcasts', href: '/console/broadcasts', label: 'Broadcasts', forAgents: false },
  { page: 'team', href: '/console/team', label: 'Team', forAgents: false },
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
  return CONSOLE_PAGES.filter((p) => p.forAgents || options.role !== 'agent').map((p) => ({
    page: p.page,
    label: p.label,
    current: p.page === current,
    // the conversations list and the team have no bot of their own to open
    href: options.botId && p.page !== 'conversations' && p.page !== 'team' ? `${p.href}?bot=${encodeURIComponent(options.botId)}` : p.href,
  }));
}

/** Draws the links into `nav` (a `<nav aria-label="Console">` of the page's header). */
export function drawConsoleNav(nav: HTMLElement, current: ConsolePage, options: { botId?: string; role?: string } = {}): void {
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

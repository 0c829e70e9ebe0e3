// The console's keyboard shortcuts (listed in the help overlay, `?`): single keys outside text
// fields, so an operator's day needs no mouse. Each shortcut does what its button does (it clicks
// it), so the rules of the buttons (disabled in some states) hold for the keys too.
import { $ } from './api';
import { focusEntry, keyOf, shownConversations } from './list';
import type { Summary } from './types';

/** A touch screen and no mouse (a phone, a tablet): hints about keys are left out there. */
export const touchScreen = () => matchMedia('(hover: none) and (pointer: coarse)').matches;

interface KeyHost {
  open: (c: Summary) => Promise<void>;
  current: () => { BotId: string; UserId: string } | null;
}

/** A button's click, or a word on the status line why not. */
function press(id: string) {
  const button = $(id) as HTMLButtonElement;
  if (button && !button.disabled && !button.closest('[hidden]')) button.click();
}

function typing(target: EventTarget | null) {
  const t = target as HTMLElement | null;
  return !!t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));
}

export function initKeys(host: KeyHost) {
  const open = document.body.dataset.mode !== 'share';
  $('help-open').addEventListener('click', () => $('help-dialog').showModal());
  $('help-close').addEventListener('click', () => $('help-dialog').close());
  // A menu closes once one of its actions is chosen (its fields keep it open while filled in).
  document.addEventListener('click', (event) => {
    // (a toggle such as Desktop alerts stays: its new state is shown where it was pressed)
    const button = (event.target as HTMLElement).closest?.('.menu-body button:not([aria-pressed])');
    const menu = button?.closest('details');
    if (menu) menu.open = false;
  });

  /** The next (+1) or previous (-1) conversation of the list as it is shown; its entry keeps the Tab stop. */
  const step = async (by: number) => {
    const list = shownConversations();
    const current = host.current();
    const at = current ? list.findIndex((c) => keyOf(c) === keyOf(current)) : -1;
    const next = list[at < 0 ? 0 : at + by];
    if (!next) return;
    await host.open(next);
    const entry = document.querySelector('.conversation-open[aria-current="true"]') as HTMLElement | null;
    if (entry && !matchMedia('(max-width: 760px)').matches) focusEntry(entry);
  };

  /** Esc in a text field hands the keys back to the shortcuts (the field keeps what was typed). */
  document.addEventListener('keydown', (event) => {
    if (!open || $('workspace').hidden || event.defaultPrevented) return;
    if (event.key === 'Escape' && typing(event.target) && !document.querySelector('dialog[open]')) {
      const field = event.target as HTMLElement;
      if (field.id === 'search') return;
      event.preventDefault();
      const menu = field.closest('details');
      if (menu) {
        menu.open = false;
        (menu.querySelector('summary') as HTMLElement).focus();
      } else $('transcript').focus();
      return;
    }
    if (event.key === 'Escape') {
      const menu = document.querySelector('details.menu[open]') as HTMLDetailsElement | null;
      if (menu) {
        menu.open = false;
        (menu.querySelector('summary') as HTMLElement).focus();
      }
      return;
    }
    if (typing(event.target) || event.ctrlKey || event.metaKey || event.altKey || document.querySelector('dialog[open]')) return;
    const actions = {
      '?': () => $('help-dialog').showModal(),
      j: () => void step(1),
      k: () => void step(-1),
      t: () => press('takeover'),
      h: () => press('handover'),
      e: () => press('resolve'),
      s: () => press('snooze-hour'),
      r: () => !$('message-text').disabled && !$('conversation-body').hidden && $('message-text').focus(),
      n: () => {
        if ($('notes').hidden) return;
        document.body.classList.add('show-contact');
        $('note-text').focus();
      },
      m: () => {
        if ($('conversation-body').hidden) return;
        $('more-menu').open = true;
        ($('more-menu').querySelector('button:not([disabled])') as HTMLElement)?.focus();
      },
      '/': () => $('search').focus(),
      l: () => {
        if (matchMedia('(max-width: 760px)').matches && document.body.classList.contains('has-open')) return press('back');
        const entry = document.querySelector('.conversation-open[tabindex="0"]') as HTMLElement | null;
        if (entry) focusEntry(entry);
      },
    } as Record<string, () => void>;
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });
}

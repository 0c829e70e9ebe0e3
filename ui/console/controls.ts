// The console page's controls by id, with the element each one is in body.html (a button, a
// field, a dialog…), so that `$('ban-days').value` is typed; an id not listed here is a plain
// HTMLElement. body.html is where each is declared: a control added there is added here.

type Ids<T, K extends string> = { [id in K]: T };

export type ConsoleControls = Ids<
  HTMLButtonElement,
  | 'alert-desktop'
  | 'assign-me'
  | 'avatar-close'
  | 'avatar-manage'
  | 'back'
  | 'ban'
  | 'canned-close'
  | 'canned-manage'
  | 'canned-new'
  | 'canned-save'
  | 'contact-toggle'
  | 'forget'
  | 'handover'
  | 'help-close'
  | 'help-open'
  | 'logout'
  | 'message-send'
  | 'reopen'
  | 'resolve'
  | 'takeover'
  | 'teams-close'
  | 'teams-manage'
  | 'transfer-close'
  | 'transfer-open'
  | 'unassign'
  | 'unban'
> &
  Ids<HTMLDetailsElement, 'account-menu' | 'more-menu'> &
  Ids<HTMLInputElement, 'alert-sound' | 'avatar-url' | 'ban-days' | 'ban-message' | 'canned-id' | 'canned-shortcut' | 'search' | 'signin-account' | 'signin-email' | 'signin-password' | 'team-name'> &
  Ids<HTMLFormElement, 'avatar-form' | 'canned-form' | 'message-form' | 'note-form' | 'signin-form' | 'team-form' | 'transfer-form'> &
  Ids<HTMLSelectElement, 'canned-picker' | 'filter-assignee' | 'filter-bot' | 'filter-channel' | 'filter-state' | 'filter-status' | 'handover-mode' | 'transfer-to'> &
  Ids<HTMLTextAreaElement, 'canned-text' | 'message-text' | 'note-text'> &
  Ids<HTMLDialogElement, 'avatar-dialog' | 'canned-dialog' | 'help-dialog' | 'teams-dialog' | 'transfer-dialog'>;

/** The element of id `K` as the page has it. */
export type ControlOf<K extends string> = K extends keyof ConsoleControls ? ConsoleControls[K] : HTMLElement;

// Every text the widget itself shows or reads out, in English and German. The language is the
// page's choice (data-lang on the script tag, else <html lang>), else the browser's; anything
// but German falls back to English. A language is one more object of the same shape.

const en = {
  openChat: 'Open chat',
  openChatWith: (name: string) => `Open chat with ${name}`,
  unread: (label: string, n: number) => `${label}, ${n} unread message${n === 1 ? '' : 's'}`,
  canWriteAgain: 'You can write again.',
  notSentRetry: 'Not sent.',
  nextInQueue: 'You are next in the queue.',
  inQueue: (n: number) => `You are number ${n} in the queue.`,
  repliesInUnderAMinute: 'The team usually replies in under a minute.',
  repliesInMinutes: (n: number) => `The team usually replies in about ${n} minute${n === 1 ? '' : 's'}.`,
  retry: 'Retry',
  closeChat: 'Close chat',
  chat: 'Chat',
  conversation: 'Conversation',
  messages: 'Messages',
  message: 'Message',
  send: 'Send',
  typeHere: 'Type a message…',
  chooseAbove: 'Choose an option above',
  botTyping: 'The bot is typing',
  operatorTyping: (name: string) => `${name} is typing…`,
  offline: 'Connection lost. Your messages will be sent when it is back.',
  waitingToSend: 'Waiting to send…',
  you: 'You: ',
  operator: 'Operator',
  cannotWrite: 'You cannot write in this chat.',
  withPerson: 'You are now talking with a person.',
  withPersonNamed: (name: string) => `You are now talking with ${name}.`,
  withBot: 'You are talking with the bot again.',
  unavailable: 'The chat is not available right now.',
  notSent: 'Your message could not be sent. Please try again.',
  open: 'Open',
  link: 'Link',
  newTab: '(opens in a new tab)',
  card: 'card',
  cardOf: (title: string, n: number, count: number) => `${title} (${n} of ${count})`,
  cards: (count: number) => `${count} cards; left and right arrow keys move between them`,
  image: 'Image',
  imageMissing: 'Image not available',
  video: 'Video',
  audio: 'Audio',
  download: (name: string) => `Download ${name}`,
};

export type Texts = typeof en;

const de: Texts = {
  openChat: 'Chat öffnen',
  openChatWith: (name) => `Chat mit ${name} öffnen`,
  unread: (label, n) => `${label}, ${n} ungelesene Nachricht${n === 1 ? '' : 'en'}`,
  canWriteAgain: 'Sie können wieder schreiben.',
  notSentRetry: 'Nicht gesendet.',
  nextInQueue: 'Sie sind als Nächstes an der Reihe.',
  inQueue: (n) => `Sie sind Nummer ${n} in der Warteschlange.`,
  repliesInUnderAMinute: 'Das Team antwortet meist in weniger als einer Minute.',
  repliesInMinutes: (n) => `Das Team antwortet meist in etwa ${n} ${n === 1 ? 'Minute' : 'Minuten'}.`,
  retry: 'Erneut senden',
  closeChat: 'Chat schließen',
  chat: 'Chat',
  conversation: 'Unterhaltung',
  messages: 'Nachrichten',
  message: 'Nachricht',
  send: 'Senden',
  typeHere: 'Nachricht schreiben…',
  chooseAbove: 'Bitte oben eine Option wählen',
  botTyping: 'Der Bot schreibt',
  operatorTyping: (name) => `${name} schreibt…`,
  offline: 'Verbindung unterbrochen. Ihre Nachrichten werden gesendet, sobald sie wieder besteht.',
  waitingToSend: 'Wird gesendet, sobald möglich…',
  you: 'Sie: ',
  operator: 'Mitarbeiter',
  cannotWrite: 'Sie können in diesem Chat nicht schreiben.',
  withPerson: 'Sie sprechen jetzt mit einem Menschen.',
  withPersonNamed: (name) => `Sie sprechen jetzt mit ${name}.`,
  withBot: 'Sie sprechen wieder mit dem Bot.',
  unavailable: 'Der Chat ist gerade nicht verfügbar.',
  notSent: 'Ihre Nachricht konnte nicht gesendet werden. Bitte versuchen Sie es erneut.',
  open: 'Öffnen',
  link: 'Link',
  newTab: '(öffnet in einem neuen Tab)',
  card: 'Karte',
  cardOf: (title, n, count) => `${title} (${n} von ${count})`,
  cards: (count) => `${count} Karten; mit den Pfeiltasten links und rechts wechseln`,
  image: 'Bild',
  imageMissing: 'Bild nicht verfügbar',
  video: 'Video',
  audio: 'Audio',
  download: (name) => `${name} herunterladen`,
};

const LANGUAGES: Record<string, Texts> = { en, de };

/** The texts in use; chosen once, when the widget starts. */
export let t: Texts = en;

/** The first of `wishes` (language tags, most wanted first) that the widget speaks; English otherwise. */
export function chooseLanguage(...wishes: Array<string | null | undefined>): string {
  for (const wish of wishes) {
    const code = (wish ?? '').trim().toLowerCase().split(/[-_]/)[0];
    if (code && LANGUAGES[code]) {
      t = LANGUAGES[code];
      return code;
    }
  }
  t = en;
  return 'en';
}

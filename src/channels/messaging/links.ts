// Where a customer finds the bot on each messaging app (issue 37 "Install": "the links for the
// messaging channels"), from what the connection already knows: Telegram's @username (getMe at
// connect) opens as t.me/<username>, a Messenger page id as m.me/<page id>. WhatsApp's connection
// holds the phone number's id in the Cloud API, not the number itself, so it gets no link: the
// console says customers write to the business's WhatsApp number.
import type { ChannelListing } from './connections.js';

export interface ChannelLink {
  Channel: string;
  Connected: boolean;
  /** https link that opens a chat with the bot, or null (not connected, or not derivable) */
  Link: string | null;
  /** what the connection names: @username, page id, phone number id */
  Account: string | null;
}

const TELEGRAM_USERNAME = /^@([A-Za-z0-9_]{5,64})$/;
const PAGE_ID = /^\d{1,32}$/;

export function channelLinks(listing: readonly ChannelListing[]): ChannelLink[] {
  return listing
    .filter((c) => c.Channel !== 'web' && c.Channel !== 'custom')
    .map((c) => ({ Channel: c.Channel, Connected: c.Enabled, Link: c.Enabled ? linkOf(c.Channel, c.Account ?? '') : null, Account: c.Enabled ? (c.Account ?? null) : null }));
}

function linkOf(channel: string, account: string): string | null {
  if (channel === 'telegram') {
    const name = TELEGRAM_USERNAME.exec(account)?.[1];
    return name ? `https://t.me/${name}` : null;
  }
  if (channel === 'messenger') return PAGE_ID.test(account) ? `https://m.me/${account}` : null;
  return null;
}

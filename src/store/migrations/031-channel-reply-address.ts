// Teams (channels-more.md): a conversation's replies go to the serviceUrl its latest verified
// activity named, never to one an unverified request names; kept with the other per-contact facts.
import type { Migration } from './migration.js';

const sql = `ALTER TABLE channel_contacts ADD COLUMN reply_address TEXT;`;

export const channelReplyAddress: Migration = {
  version: 31,
  name: 'channel reply address',
  sqlite: sql,
  postgres: sql,
};

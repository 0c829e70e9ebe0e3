// The Install panel's messaging links come from the connection's account alone; anything that is
// not a well-formed username or page id gets no link rather than a link somewhere unexpected.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { channelLinks } from './links.js';

const listed = (Channel: string, Enabled: boolean, Account?: string) => ({ Channel, Enabled, WebhookUrl: null, LastInboundAt: null, LastError: null, ...(Account === undefined ? {} : { Account }) });

test('telegram and messenger links from their accounts; whatsapp, web and custom get none', () => {
  assert.deepEqual(
    channelLinks([listed('custom', true), listed('web', true), listed('telegram', true, '@spoke_chain_bot'), listed('whatsapp', true, '1234567890'), listed('messenger', true, '104857600123')]),
    [
      { Channel: 'telegram', Connected: true, Link: 'https://t.me/spoke_chain_bot', Account: '@spoke_chain_bot' },
      { Channel: 'whatsapp', Connected: true, Link: null, Account: '1234567890' },
      { Channel: 'messenger', Connected: true, Link: 'https://m.me/104857600123', Account: '104857600123' },
    ],
  );
});

test('a disconnected channel has no link and no account; a malformed account no link', () => {
  assert.deepEqual(channelLinks([listed('telegram', false, '@old_bot'), listed('messenger', true, 'x/../evil')]), [
    { Channel: 'telegram', Connected: false, Link: null, Account: null },
    { Channel: 'messenger', Connected: true, Link: null, Account: 'x/../evil' },
  ]);
});

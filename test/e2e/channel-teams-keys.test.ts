// The Bot Framework's signing keys as the Teams channel fetches them (channels-more.md "Inbound",
// Teams; auth.ts): read through the OpenID metadata's jwks_uri and cached; a token with an unknown
// key id (Microsoft rotated its keys) fetches them again, but at most once per refresh period, so
// forged key ids cannot make the server hammer the metadata host; a key signs only for the channels
// it endorses.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BotFrameworkAuth, hostAllowed } from '../../src/channels/teams/auth.js';
import { newSigningKey, TeamsDouble } from '../support/teams-double.js';

const APP_ID = '5f0c2a7e-3b1d-4c8e-9a6f-0d2e4b6c8a10';

describe('Teams: the Bot Framework keys', () => {
  let teams: TeamsDouble;
  const authorization = async (activity: { serviceUrl: string }, key?: Awaited<ReturnType<typeof newSigningKey>>) => `Bearer ${await teams.token(activity, { key })}`;

  before(async () => {
    teams = await TeamsDouble.start(APP_ID, 'secret');
  });
  after(() => teams.close());

  test('an unknown key id refetches the keys at most once per refresh period', async () => {
    const auth = new BotFrameworkAuth({ openIdUrl: teams.openIdUrl, serviceHosts: ['127.0.0.1'], keysRefreshSeconds: 3600 });
    const activity = { serviceUrl: teams.serviceUrl, channelId: 'msteams' };
    const keysBefore = teams.keyFetches;
    assert.equal(await auth.verify(await authorization(activity), APP_ID, activity), true);
    assert.equal(teams.keyFetches, keysBefore + 1);
    assert.equal(await auth.verify(await authorization(activity), APP_ID, activity), true);
    const forger = await newSigningKey();
    for (let i = 0; i < 5; i++) assert.equal(await auth.verify(await authorization(activity, forger), APP_ID, activity), false);
    assert.equal(teams.keyFetches, keysBefore + 1, 'no refetch inside the refresh period');
    await teams.rotate();
    assert.equal(await auth.verify(await authorization(activity), APP_ID, activity), false, 'a new key inside the period waits for it to end');
    assert.equal(teams.metadataFetches, 1);
  });

  test("a key signs only for the channels it endorses (the activity's channelId)", async () => {
    const auth = new BotFrameworkAuth({ openIdUrl: teams.openIdUrl, serviceHosts: ['127.0.0.1'], keysRefreshSeconds: 0 });
    const activity = { serviceUrl: teams.serviceUrl };
    assert.equal(await auth.verify(await authorization(activity), APP_ID, { ...activity, channelId: 'msteams' }), true);
    assert.equal(await auth.verify(await authorization(activity), APP_ID, { ...activity, channelId: 'skype' }), false);
    assert.equal(await auth.verify(await authorization(activity), APP_ID, activity), false, 'no channelId: none endorsed');
  });

  test('a rotated key is fetched once the refresh period allows', async () => {
    const auth = new BotFrameworkAuth({ openIdUrl: teams.openIdUrl, serviceHosts: ['127.0.0.1'], keysRefreshSeconds: 0 });
    const activity = { serviceUrl: teams.serviceUrl, channelId: 'msteams' };
    assert.equal(await auth.verify(await authorization(activity), APP_ID, activity), true);
    const fetches = teams.keyFetches;
    await teams.rotate();
    assert.equal(await auth.verify(await authorization(activity), APP_ID, activity), true);
    assert.equal(teams.keyFetches, fetches + 1);
  });

  test('the serviceUrl allow-list: exact hosts and *. wildcards, never the wildcard domain itself nor userinfo tricks', () => {
    const hosts = ['*.botframework.com', '*.trafficmanager.net', '127.0.0.1'];
    assert.equal(hostAllowed('https://smba.trafficmanager.net/emea/', hosts), true);
    assert.equal(hostAllowed('https://europe.webchat.botframework.com/', hosts), true);
    assert.equal(hostAllowed('http://127.0.0.1:8080/teams/', hosts), true);
    assert.equal(hostAllowed('https://botframework.com/', hosts), false);
    assert.equal(hostAllowed('https://evilbotframework.com/', hosts), false);
    assert.equal(hostAllowed('https://smba.trafficmanager.net.evil.example/', hosts), false);
    assert.equal(hostAllowed('https://smba.trafficmanager.net@evil.example/', hosts), false);
    assert.equal(hostAllowed('https://x.trafficmanager.net:443@evil.example/', hosts), false);
    assert.equal(hostAllowed('ftp://smba.trafficmanager.net/', hosts), false);
    assert.equal(hostAllowed('not a url', hosts), false);
  });
});

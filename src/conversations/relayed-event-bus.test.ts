// Nodes relay events only while another node listens (presence), over a relay that, like
// LISTEN/NOTIFY, delivers every payload to every node, the sender included, a moment later.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConversationEvent } from './events.js';
import { RelayedEventBus } from './relayed-event-bus.js';

function network(now: () => number) {
  const buses: RelayedEventBus[] = [];
  const sent: string[] = [];
  const relay = { send: (payload: string) => (sent.push(payload), setImmediate(() => buses.forEach((b) => b.receive(payload)))) };
  const node = (id: string) => {
    const bus = new RelayedEventBus(id, 7900, now);
    buses.push(bus);
    bus.attach(relay);
    return bus;
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
  const relayedEvents = () => sent.filter((p) => p.includes('"event":')).length;
  return { node, settle, relayedEvents, stopAll: () => buses.forEach((b) => b.stop()) };
}

const message = (text: string): ConversationEvent => ({
  kind: 'message',
  botId: 'b',
  userId: 'u',
  channel: 'web',
  direction: 'BOT',
  enableUserChat: true,
  controlType: 0,
  at: 1,
  parts: [{ Type: 0, Text: text, Command: null, TypeDelay: 0, BehaviourName: 'Main', InteractionName: 'Welcome', Parts: [] }],
});

test('nothing is relayed while no other node listens; once one listens, its listeners get every event', async () => {
  let now = 1_000_000;
  const net = network(() => now);
  const a = net.node('a');
  const b = net.node('b');
  await net.settle();
  a.publish(message('nobody hears this'));
  assert.equal(a.wanted(), false, 'no listener anywhere: the turn need not even build its events');
  assert.equal(net.relayedEvents(), 0);

  const heard: string[] = [];
  b.subscribe((e) => e.kind === 'message' && heard.push(e.parts[0].Text ?? ''));
  await b.reachable();
  assert.equal(a.wanted(), true);
  a.publish(message('hello from a'));
  await net.settle();
  assert.deepEqual(heard, ['hello from a']);

  // b's presence lapses 30 s after it last said so (its heartbeat would renew it every 10 s)
  now += 30_001;
  assert.equal(a.wanted(), false);
  a.publish(message('lost'));
  await net.settle();
  assert.deepEqual(heard, ['hello from a']);
  net.stopAll();
});

test('a node that starts after another has listeners learns of them at once (hello)', async () => {
  const net = network(() => 5_000);
  const b = net.node('b');
  const heard: string[] = [];
  b.subscribe((e) => e.kind === 'message' && heard.push(e.parts[0].Text ?? ''));
  await b.reachable();
  await net.settle();
  // b said it listens a moment ago (under a second): it answers the newcomer all the same
  const late = net.node('late');
  await net.settle();
  assert.equal(late.wanted(), true);
  late.publish(message('from the new node'));
  await net.settle();
  assert.deepEqual(heard, ['from the new node']);
  net.stopAll();
});

test('reachable() resolves at once without listeners or relay, and gives up on a silent relay after 2 s', async () => {
  const alone = new RelayedEventBus('x', 7900);
  await alone.reachable();
  const silent = new RelayedEventBus('y', 7900);
  silent.attach({ send: () => undefined });
  silent.subscribe(() => undefined);
  // never echoed: resolves anyway (the test would time out otherwise), so a stream still opens
  await silent.reachable();
  silent.stop();
});

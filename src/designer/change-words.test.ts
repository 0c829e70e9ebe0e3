// The designer's versions speak its words (issue 37 item 9): every kind of change the server's diff
// makes (src/bots/diff.ts) as one plain sentence.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changeWords } from '../../ui/designer/change-words.js';

const at = (Behaviour: string, Interaction?: string) => ({ Behaviour, ...(Interaction ? { Interaction } : {}) });

test('actions: text changed, button added and removed, an action added, removed or replaced', () => {
  assert.equal(
    changeWords({ Path: '/behaviours/0/interactions/0/actions/0', Kind: 'changed', Before: { type: 'text', text: 'Hi' }, After: { type: 'text', text: 'Hello' }, ...at('Main', 'Greeting') }),
    'Interaction “Greeting” (Main): text changed from “Hi” to “Hello”',
  );
  const buttons = (...labels: string[]) => ({ type: 'buttons', text: 'What next?', buttons: labels.map((text, i) => ({ type: 'button', id: `b${i}`, text, onClick: [] })) });
  assert.equal(
    changeWords({ Path: '/behaviours/0/interactions/0/actions/1', Kind: 'changed', Before: buttons('Prices', 'Hours'), After: buttons('Prices', 'Book a repair'), ...at('Main', 'Greeting') }),
    'Interaction “Greeting” (Main): button “Book a repair” added; button “Hours” removed',
  );
  assert.equal(
    changeWords({ Path: '/behaviours/0/interactions/2/actions/3', Kind: 'added', After: { type: 'text', text: 'We ship worldwide' }, ...at('Main', 'Shipping') }),
    'Interaction “Shipping” (Main): text “We ship worldwide” added',
  );
  assert.equal(
    changeWords({ Path: '/behaviours/1/interactions/0/actions/0', Kind: 'removed', Before: { type: 'goTo', mode: 'absolute' }, ...at('Orders', 'Ask') }),
    'Interaction “Ask” (Orders): goTo removed',
  );
  assert.equal(
    changeWords({
      Path: '/behaviours/0/interactions/0/actions/0',
      Kind: 'changed',
      Before: { type: 'text', text: 'Hi' },
      After: { type: 'media', url: 'https://e.x/a.png' },
      ...at('Main', 'Greeting'),
    }),
    'Interaction “Greeting” (Main): text “Hi” replaced by media',
  );
});

test('interactions, behaviours, variables and whole sections', () => {
  assert.equal(changeWords({ Path: '/behaviours/0/interactions/4', Kind: 'added', After: { name: 'Shipping', actions: [] }, Behaviour: 'Main' }), 'Interaction “Shipping” (Main) added');
  assert.equal(changeWords({ Path: '/behaviours/0/interactions/1', Kind: 'removed', Before: { name: 'Bye', actions: [] }, Behaviour: 'Main' }), 'Interaction “Bye” (Main) removed');
  assert.equal(
    changeWords({ Path: '/behaviours/0/interactions/1', Kind: 'changed', Before: { name: 'Sorry' }, After: { name: 'Sorry', fallback: true }, ...at('Main', 'Sorry') }),
    'Interaction “Sorry” (Main): fallback turned on',
  );
  assert.equal(changeWords({ Path: '/behaviours/2', Kind: 'added', After: { name: 'Orders', interactions: [] } }), 'Behaviour “Orders” added');
  assert.equal(changeWords({ Path: '/variables/company', Kind: 'changed', Before: 'ACME', After: 'ACME Inc' }), 'Variable “company” changed from “ACME” to “ACME Inc”');
  assert.equal(changeWords({ Path: '/variables/a~1b', Kind: 'added', After: 'x' }), 'Variable “a/b” added: “x”');
  assert.equal(changeWords({ Path: '/triggers', Kind: 'changed', Before: [], After: [{}] }), 'The bot’s triggers changed');
  assert.equal(changeWords({ Path: '/nlp', Kind: 'added', After: {} }), 'Intents and entities added');
});

test('long and hostile values stay short plain text', () => {
  const words = changeWords({ Path: '/behaviours/0/interactions/0/actions/0', Kind: 'added', After: { type: 'text', text: `<img src=x onerror=alert(1)>${'x'.repeat(200)}` }, ...at('Main', 'A') });
  assert.equal(words, `Interaction “A” (Main): text “<img src=x onerror=alert(1)>${'x'.repeat(51)}…” added`);
});

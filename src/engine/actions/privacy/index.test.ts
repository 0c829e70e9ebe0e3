import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botWith, started } from '../../test-kit.js';

test('privacy sets a flag; the flag defaults to personal_data_processing', () => {
  const [conversation] = started(
    botWith([
      { type: 'privacy', enabled: true },
      { type: 'privacy', flag: 'marketing', enabled: false },
    ]),
  );
  assert.deepEqual(conversation.state.privacy, { personal_data_processing: true, marketing: false });
});

test('a later privacy action changes the flag', () => {
  const [conversation] = started(
    botWith([
      { type: 'privacy', flag: 'personal_data_processing', enabled: true },
      { type: 'privacy', flag: 'personal_data_processing', enabled: false },
    ]),
  );
  assert.deepEqual(conversation.state.privacy, { personal_data_processing: false });
});

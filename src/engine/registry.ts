// Every action type the engine knows, keyed by `type`. Adding a type = its folder under actions/
// and one line here; /schema/bot.json is assembled from these definitions' schemas.

import type { ActionDefinition } from './action-definition.js';
import { bookmarkAction } from './actions/bookmark/index.js';
import { buttonAction } from './actions/button/index.js';
import { buttonsAction } from './actions/buttons/index.js';
import { agentAction } from './actions/agent/index.js';
import { aiAction } from './actions/ai/index.js';
import { callApiAction } from './actions/callApi/index.js';
import { carouselAction } from './actions/carousel/index.js';
import { delayAction } from './actions/delay/index.js';
import { dropTagAction } from './actions/dropTag/index.js';
import { forgetAction } from './actions/forget/index.js';
import { goToAction } from './actions/goTo/index.js';
import { inputAction } from './actions/input/index.js';
import { knowledgeAction } from './actions/knowledge/index.js';
import { linkAction } from './actions/link/index.js';
import { audioAction, fileAction, imageAction, videoAction } from './actions/media/index.js';
import { operatorAction } from './actions/operator/index.js';
import { privacyAction } from './actions/privacy/index.js';
import { setTagAction } from './actions/setTag/index.js';
import { setVariableAction } from './actions/setVariable/index.js';
import { shareUrlAction } from './actions/shareUrl/index.js';
import { stopAction } from './actions/stop/index.js';
import { tagSwitchAction } from './actions/tagSwitch/index.js';
import { textAction } from './actions/text/index.js';
import { variableSwitchAction } from './actions/variableSwitch/index.js';

const definitions: ActionDefinition[] = [
  textAction,
  imageAction,
  videoAction,
  audioAction,
  fileAction,
  buttonAction,
  linkAction,
  buttonsAction,
  carouselAction,
  delayAction,
  goToAction,
  bookmarkAction,
  setVariableAction,
  setTagAction,
  dropTagAction,
  variableSwitchAction,
  tagSwitchAction,
  inputAction,
  operatorAction,
  callApiAction,
  aiAction,
  agentAction,
  knowledgeAction,
  shareUrlAction,
  privacyAction,
  forgetAction,
  stopAction,
];

export const actionRegistry: ReadonlyMap<string, ActionDefinition> = new Map(definitions.map((definition) => [definition.type, definition]));

// Bots as they run and what they understand with: the live cache, the account's usage of tokens,
// the built-in model, a bot's own AI provider, the embeddings of intents and passages, the `ai`
// step. A bot's provider change reaches the embeddings through a listener added after they exist,
// so nothing here is used before it is built.
import { TokenTally } from '../accounts/token-tally.js';
import type { AccountService } from '../accounts/service.js';
import { LiveBots } from '../bots/live.js';
import { classifierOf, versionIdOf } from '../bots/live-models.js';
import type { BotRecord } from '../bots/model.js';
import { UnderstandingService } from '../bots/understanding-service.js';
import { DEFAULT_MIN_SIMILARITY } from '../config.js';
import { AiSteps } from '../conversations/ai-step.js';
import type { CompiledBot } from '../engine/compiled.js';
import { chatCompletion, chatWithTools } from '../integrations/ai-client.js';
import { BotDayTokens } from '../conversations/bot-day-tokens.js';
import { knowledgeEmbeddings } from '../knowledge/embeddings.js';
import { BuiltinModel, DEFAULT_BUILTIN_MODEL_LIMITS } from '../understanding/builtin-model/pool.js';
import { embedWith } from '../understanding/builtin-model/provider.js';
import { IntentEmbeddings } from '../understanding/intent-embeddings.js';
import type { WiringBase } from './base.js';

export function understandingParts({ config, store, clock, logError }: WiringBase, accounts: AccountService) {
  const live = new LiveBots(store);
  // embedding tokens (indexing, questions) are the account's usage like any provider tokens
  const tokenTally = new TokenTally(accounts, logError('usage'));
  const countTokens = async (botId: string, tokens: number) => {
    const bot = await store.bots.byId(botId);
    if (bot !== null) tokenTally.add(bot.accountId, tokens);
  };
  // the built-in model's threads start on its first text (start-up and /health never wait for it)
  const builtin = config.builtinModel?.enabled ? new BuiltinModel({ ...DEFAULT_BUILTIN_MODEL_LIMITS, threads: config.builtinModel.threads, testHooks: config.builtinModel.testHooks }) : null;
  const providerChanged: Array<(botId: string) => void> = [];
  const understanding = new UnderstandingService(store, clock, config, live, (botId) => providerChanged.forEach((listener) => listener(botId)));
  const embeddingAccess = {
    clock,
    embed: embedWith(builtin),
    countTokens,
    allowPrivateNetwork: config.allowPrivateNetwork,
    provider: (botId: string) => understanding.embeddingProviderFor(botId),
    minSimilarity: config.embeddingMinSimilarity ?? DEFAULT_MIN_SIMILARITY,
  };
  const embeddings = knowledgeEmbeddings({ ...embeddingAccess, store, onError: logError('embeddings') });
  const intentEmbeddings = new IntentEmbeddings({ ...embeddingAccess, store, onError: logError('intent embeddings') });
  providerChanged.push((botId) => {
    embeddings.queue(botId);
    intentEmbeddings.forgetProvider(botId);
  });
  // the live version's nlp.js model, with the embedding model as second opinion when the bot has one
  const classifierFor = (compiled: CompiledBot, bot: BotRecord) => intentEmbeddings.classifierFor(bot, versionIdOf(compiled), compiled.nlp, classifierOf(compiled));
  const aiSteps = new AiSteps({
    provider: (bot) => understanding.providerFor(bot),
    messages: (conversationId, limit) => store.conversations.storedMessages(conversationId, limit),
    complete: chatCompletion,
    completeWithTools: chatWithTools,
    botTokens: new BotDayTokens(),
    allowPrivateNetwork: config.allowPrivateNetwork,
    now: () => clock.now(),
  });
  return { live, tokenTally, builtin, understanding, embeddings, classifierFor, aiSteps };
}

// A bot's knowledge: sources indexed off the request thread under a lease, searched by words and
// (with an embedding model) by meaning, answered with the bot's own AI provider.
import type { LiveBots } from '../bots/live.js';
import type { BotRecord } from '../bots/model.js';
import type { UnderstandingService } from '../bots/understanding-service.js';
import { chatCompletion } from '../integrations/ai-client.js';
import { KnowledgeAnswers } from '../knowledge/answers.js';
import { minScoreOf } from '../shared/knowledge-defaults.js';
import { DEFAULT_INDEXER_LIMITS, Indexer } from '../knowledge/indexer.js';
import { IndexingLeases } from '../knowledge/indexing-lease.js';
import { KnowledgeService, type KnowledgeEmbeddings } from '../knowledge/service.js';
import type { WiringBase } from './base.js';

export function knowledgeParts({ config, store, clock, logError }: WiringBase, deps: { live: LiveBots; understanding: UnderstandingService; embeddings: KnowledgeEmbeddings }) {
  const { live, understanding, embeddings } = deps;
  // Passages are stemmed in the bot's live language; a bot with no live version yet in English.
  const languageOf = async (bot: BotRecord) => (await live.get(bot).catch(() => null))?.nlp?.language ?? 'en';
  const onError = logError('knowledge');
  const leases = new IndexingLeases({ store, clock, onError });
  const indexer = new Indexer({ ...DEFAULT_INDEXER_LIMITS, queue: config.indexingQueue ?? DEFAULT_INDEXER_LIMITS.queue });
  const knowledge = new KnowledgeService({ store, clock, indexer, languageOf, embeddings, allowPrivateNetwork: config.allowPrivateNetwork, onError, leases });
  const answers = new KnowledgeAnswers({
    find: (bot, question, limit) => knowledge.find(bot, question, limit),
    languageOf,
    minScoreOf: async (bot) => minScoreOf((await live.get(bot).catch(() => null))?.knowledge?.minScore),
    provider: (bot) => understanding.providerFor(bot),
    complete: chatCompletion,
    allowPrivateNetwork: config.allowPrivateNetwork,
  });
  return { indexingLeases: leases, knowledge, knowledgeAnswers: answers };
}

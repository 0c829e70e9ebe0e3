// The demo bot's assistant (README "Agents"): the welcome's "Ask the assistant" button, or typing
// "assistant" anywhere, hands the conversation to an
// `agent` action (agents.md) whose tools are the demo's own FAQ, its order-tracking flow and a
// person. Added to the demo's copy of assets/support.bot.json, not to the file itself: that file
// is the fixture of many tests. Without a provider the model call is NOT_CONFIGURED, the agent
// ends with agent_status ERROR, and onError says plainly what is missing and goes back to the
// menu, so nobody is left talking to an agent that cannot answer.

/** What the user types to reach the assistant: a trigger placed first, so no intent of the demo takes the word. */
export const ASSISTANT_TRIGGER = 'assistant';

export const NO_MODEL_TEXT =
  'The assistant needs a language model, and none answered ({{agent_status}}). Whoever runs this server can give it one with COLLOQUY_AI_BASE_URL and COLLOQUY_AI_MODEL (docs/agents.md). Until then, the menu and the FAQ work without one.';

const assistant = {
  name: 'Assistant',
  interactions: [
    {
      name: 'Chat',
      start: true,
      enableUserChat: true,
      actions: [
        {
          type: 'agent',
          instructions:
            "You are {{company}}'s support assistant. Answer from the knowledge base and cite it; start the order tracking when the user asks where an order is; hand over to a person when asked or when the user is upset. Never invent prices or delivery dates.",
          tools: [
            { type: 'knowledge' },
            { type: 'flow', name: 'track_order', description: 'Start tracking an order (asks for the order number)', behaviour: 'Orders' },
            { type: 'handover', description: 'When the user asks for a person or is upset' },
          ],
          maxSteps: 4,
          onError: [
            { type: 'text', text: NO_MODEL_TEXT },
            { type: 'goTo', mode: 'absolute', behaviour: 'Main', interaction: 'Anything Else' },
          ],
        },
      ],
    },
  ],
};

/** The welcome's button to the assistant: a visitor of /demo meets the agent without knowing a word to type. */
export const ASSISTANT_BUTTON = 'Ask the assistant';
/** Said on the button's click: the agent answers the next message (a click is no question for it). */
export const ASSISTANT_GREETING = "I'm the assistant: ask me about an order, shipping or returns, or ask for a person.";
const toAssistant = { type: 'goTo', mode: 'absolute', behaviour: 'Assistant', interaction: 'Chat' };

// biome-ignore lint/suspicious/noExplicitAny: the demo bot file as read from JSON, checked by the server when created
type Json = Record<string, any>;

export function withAssistant(bot: Json): Json {
  const trigger = { match: ASSISTANT_TRIGGER, actions: [toAssistant] };
  const button = { type: 'button', id: '6f1c2a1e-0d4b-4d8e-9a57-1b2f3c4d5e09', text: ASSISTANT_BUTTON, onClick: [{ type: 'text', text: ASSISTANT_GREETING }, toAssistant] };
  // after the welcome's last button, before its links
  const withButton = (action: Json) => {
    if (action.type !== 'buttons') return action;
    const firstLink = action.buttons.findIndex((b: Json) => b.type === 'link');
    const at = firstLink < 0 ? action.buttons.length : firstLink;
    return { ...action, buttons: [...action.buttons.slice(0, at), button, ...action.buttons.slice(at)] };
  };
  const behaviours = bot.behaviours.map((b: Json) =>
    b.name !== 'Main' ? b : { ...b, interactions: b.interactions.map((i: Json) => (i.name !== 'Welcome' ? i : { ...i, actions: i.actions.map(withButton) })) },
  );
  return { ...bot, triggers: [trigger, ...(bot.triggers ?? [])], behaviours: [...behaviours, assistant] };
}

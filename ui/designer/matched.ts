// The preview's quiet line under a reply: which trigger or intent took the visitor's text, with
// what score, and where it went (the server's `Matched`, docs/designer.md "Why the bot answered").

export interface PreviewMatch {
  Kind: 'keyword' | 'regex' | 'intent' | 'input' | 'knowledge' | 'fallback';
  Name: string;
  Score?: number | 'ai';
  Trigger?: { Behaviour: string | null; Index: number };
  BestIntent?: { Name: string; Score: number };
  Behaviour: string | null;
  Interaction: string | null;
}

const score = (s: number | 'ai' | undefined) => (s === 'ai' ? 'chosen by the AI' : s === undefined ? '' : s.toFixed(2));

/** The explanation in one sentence, e.g. "Intent order_status (0.91) took this message to Orders › Ask number". */
export function explainMatch(m: PreviewMatch): string {
  const to = m.Behaviour && m.Interaction ? `${m.Behaviour} › ${m.Interaction}` : 'where it was';
  const owner = m.Trigger?.Behaviour ? ` of ${m.Trigger.Behaviour}` : '';
  const best = m.BestIntent ? ` Best intent: ${m.BestIntent.Name} (${score(m.BestIntent.Score)}), not enough.` : '';
  switch (m.Kind) {
    case 'intent':
      return `Intent ${m.Name} (${score(m.Score)}) took this message to ${to}`;
    case 'keyword':
      return `Keyword trigger “${m.Name}”${owner} took this message to ${to}`;
    case 'regex':
      return `Pattern trigger /${m.Name}/${owner} took this message to ${to}`;
    case 'input':
      return `The waiting question took this answer; now at ${to}`;
    case 'knowledge':
      return 'No trigger took this message: the knowledge answered it';
    case 'fallback':
      return `No trigger or intent took this message: the fallback answered (${to}).${best}`;
  }
}

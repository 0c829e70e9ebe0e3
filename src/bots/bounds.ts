// Bounds on a bot file, checked before it is parsed (issue 35). The YAML parser recursed once per
// `[` (a 1 MB `[[[[…` ran 72 s and overflowed the stack) and its duplicate-key check was
// quadratic (20,000 keys: 17 s): so the raw text is first read by this scanner, one pass, no
// regular expression, and a file over a bound is refused before any parser sees it. It follows
// YAML's tokens closely enough to tell structure from quoted or block-scalar text; where it cannot
// (odd plain scalars), it errs either way by a little, and the parsed document is bounded again
// (boundParsed) on the thread that parsed it.

/** What a bot file may hold (docs/limits.md "Bot files"). */
export const BOT_FILE_LIMITS = Object.freeze({
  /** UTF-8 bytes of the text (the HTTP body limit is the same) */
  bytes: 5 * 1024 * 1024,
  /** nesting of collections, block and flow alike (validate.ts's MAX_DEPTH) */
  depth: 200,
  /** keys, values and items: every node of the document */
  nodes: 100_000,
  /** YAML anchors (`&a`) and aliases (`*a`) together */
  anchors: 1_000,
});

export type BotFileLimit = 'BotFileBytes' | 'BotFileDepth' | 'BotFileNodes' | 'BotFileAnchors';

/** A bound the file goes over: what the client is told (400 INVALID_BOT with `Limit` and `Max`). */
export interface LimitHit {
  limit: BotFileLimit;
  max: number;
  message: string;
}

export const limitHit = (limit: BotFileLimit): LimitHit => {
  const messages: Record<BotFileLimit, string> = {
    BotFileBytes: `the bot file is larger than ${BOT_FILE_LIMITS.bytes} bytes`,
    BotFileDepth: `the bot file is nested more than ${BOT_FILE_LIMITS.depth} levels deep`,
    BotFileNodes: `the bot file has more than ${BOT_FILE_LIMITS.nodes} keys, values and items`,
    BotFileAnchors: `the bot file has more than ${BOT_FILE_LIMITS.anchors} anchors and aliases`,
  };
  const max = { BotFileBytes: BOT_FILE_LIMITS.bytes, BotFileDepth: BOT_FILE_LIMITS.depth, BotFileNodes: BOT_FILE_LIMITS.nodes, BotFileAnchors: BOT_FILE_LIMITS.anchors }[limit];
  return { limit, max, message: messages[limit] };
};

const SPACE = 0x20,
  TAB = 0x09,
  LF = 0x0a,
  CR = 0x0d;
const isBlank = (c: number) => c === SPACE || c === TAB || c === CR || c === LF || Number.isNaN(c);
/** flow indicators end an anchor, alias or tag name */
const endsName = (c: number) => isBlank(c) || c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d;

/**
 * The first bound `text` (YAML or JSON) goes over, or null. Linear in the text, and it stops at
 * the first bound passed, so an attack is refused in the time it takes to read up to it.
 */
export function scanBotFileText(text: string): LimitHit | null {
  if (text.length > BOT_FILE_LIMITS.bytes || Buffer.byteLength(text, 'utf8') > BOT_FILE_LIMITS.bytes) return limitHit('BotFileBytes');
  const n = text.length;
  // columns of the open block nodes: a node at a column not right of the top closes it
  const block: number[] = [];
  let flow = 0;
  let nodes = 0;
  let anchors = 0;
  let i = 0;
  let lineBegin = 0;
  let lineIndent = 0;
  /** the next character may start a node (after an indicator, at a line's start) */
  let tokenStart = true;
  /** while >= 0: the indentation a block scalar's lines are deeper than */
  let blockScalar = -1;

  const node = (): LimitHit | null => {
    const col = i - lineBegin;
    if (flow === 0) {
      while (block.length > 0 && block[block.length - 1]! >= col) block.pop();
      block.push(col);
    }
    if (++nodes > BOT_FILE_LIMITS.nodes) return limitHit('BotFileNodes');
    return block.length + flow > BOT_FILE_LIMITS.depth ? limitHit('BotFileDepth') : null;
  };
  const skipName = () => {
    while (i < n && !endsName(text.charCodeAt(i))) i++;
  };
  const skipLine = () => {
    const end = text.indexOf('\n', i);
    i = end === -1 ? n : end;
  };

  while (i < n) {
    if (i === lineBegin) {
      while (i < n && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
      lineIndent = i - lineBegin;
      const c = text.charCodeAt(i);
      const blank = i >= n || c === LF || c === CR;
      if (blockScalar >= 0 && (blank || lineIndent > blockScalar)) {
        skipLine();
        // past the line's LF: on an empty line skipLine stays where it is, at the start of the
        // same line, and the scan went round forever (a Rasa export's blank line between items)
        if (i < n) lineBegin = ++i;
        continue;
      }
      blockScalar = -1;
      tokenStart = true;
      // a document marker ends every block node
      if (flow === 0 && lineIndent === 0 && (text.startsWith('---', i) || text.startsWith('...', i)) && isBlank(text.charCodeAt(i + 3))) {
        block.length = 0;
        i += 3;
        continue;
      }
      if (i >= n) break;
    }
    const c = text.charCodeAt(i);
    if (c === LF) {
      lineBegin = ++i;
      continue;
    }
    if (c === SPACE || c === TAB || c === CR) {
      i++;
      continue;
    }
    if (c === 0x23 /* # */ && (i === lineBegin || isBlank(text.charCodeAt(i - 1)))) {
      skipLine();
      continue;
    }
    if (tokenStart) {
      const next = text.charCodeAt(i + 1);
      if (c === 0x22 /* " */ || c === 0x27 /* ' */) {
        const hit = node();
        if (hit) return hit;
        i++;
        while (i < n) {
          const q = text.charCodeAt(i);
          if (q === LF) lineBegin = i + 1;
          if (c === 0x22 && q === 0x5c /* \ */) i += 2;
          else if (q === c && !(c === 0x27 && text.charCodeAt(i + 1) === 0x27)) break;
          else i += q === 0x27 && c === 0x27 ? 2 : 1;
        }
        i++;
        // after a quoted key, `:` needs no space (JSON's `"a":1`)
        tokenStart = false;
        if (text.charCodeAt(i) === 0x3a /* : */) {
          tokenStart = true;
          i++;
        }
        continue;
      }
      if (c === 0x26 /* & */ || c === 0x21 /* ! */) {
        if (c === 0x26 && ++anchors > BOT_FILE_LIMITS.anchors) return limitHit('BotFileAnchors');
        skipName();
        continue;
      }
      if (c === 0x2a /* * */) {
        if (++anchors > BOT_FILE_LIMITS.anchors) return limitHit('BotFileAnchors');
        const hit = node();
        if (hit) return hit;
        skipName();
        tokenStart = false;
        continue;
      }
      if (flow === 0 && (c === 0x2d /* - */ || c === 0x3f) /* ? */ && isBlank(next)) {
        const hit = node();
        if (hit) return hit;
        i++;
        continue;
      }
      if (flow === 0 && (c === 0x7c /* | */ || c === 0x3e) /* > */) {
        const hit = node();
        if (hit) return hit;
        blockScalar = lineIndent;
        skipLine();
        continue;
      }
    }
    // flow collections: at a node's start anywhere, and anywhere inside a flow collection
    if ((c === 0x5b || c === 0x7b) && (tokenStart || flow > 0)) {
      const hit = node();
      if (hit) return hit;
      flow++;
      if (block.length + flow > BOT_FILE_LIMITS.depth) return limitHit('BotFileDepth');
      tokenStart = true;
      i++;
      continue;
    }
    if (flow > 0 && (c === 0x5d || c === 0x7d)) {
      flow--;
      tokenStart = false;
      i++;
      continue;
    }
    if (flow > 0 && c === 0x2c /* , */) {
      tokenStart = true;
      i++;
      continue;
    }
    if (c === 0x3a /* : */ && (flow > 0 || isBlank(text.charCodeAt(i + 1)))) {
      tokenStart = true;
      i++;
      continue;
    }
    if (tokenStart) {
      const hit = node();
      if (hit) return hit;
      tokenStart = false;
    }
    i++;
  }
  return null;
}

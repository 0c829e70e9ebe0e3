// The widget's entry point. A page adds it with one line:
//   <script src="{base}/widget.js" data-bot="<web key>"></script>
// Options on the tag: data-variables (JSON object, for a new conversation), data-behaviour (the
// behaviour a new conversation starts in), data-open ("true": open at once), data-base (the
// server, when widget.js is served from elsewhere), data-lang (en or de; default: the page's
// language, then the browser's). Without data-bot, the page calls
// Colloquy.start({bot, ...}) itself. Then Colloquy.open(), close(), say(text) and reset().
import type { Options } from './types.js';
import { Widget } from './widget.js';

interface ColloquyApi {
  start(options: Options): void;
  open(): void;
  close(): void;
  say(text: string): Promise<void>;
  reset(): Promise<void>;
}

declare global {
  interface Window {
    Colloquy?: ColloquyApi;
  }
}

// Read while the script runs: `currentScript` is null afterwards.
const script = document.currentScript as HTMLScriptElement | null;
const scriptBase = script?.src ? new URL(script.src).origin : window.location.origin;
let widget: Widget | null = null;

function start(options: Options): void {
  if (!options?.bot) throw new Error('Colloquy.start needs {bot: "<web key>"}');
  widget?.destroy();
  const base = (options.base ?? scriptBase).replace(/\/+$/, '');
  const create = () => (widget = new Widget({ ...options, base }));
  if (document.body) create();
  else document.addEventListener('DOMContentLoaded', create, { once: true });
}

function fromTag(tag: HTMLScriptElement): Options | null {
  const bot = tag.getAttribute('data-bot');
  if (!bot) return null;
  let variables: Options['variables'];
  const rawVariables = tag.getAttribute('data-variables');
  if (rawVariables) {
    try {
      variables = JSON.parse(rawVariables);
    } catch {
      console.error('Colloquy: data-variables is not valid JSON; ignored.');
    }
  }
  return {
    bot,
    variables,
    behaviour: tag.getAttribute('data-behaviour') ?? undefined,
    base: tag.getAttribute('data-base') ?? undefined,
    open: tag.getAttribute('data-open') === 'true',
    lang: tag.getAttribute('data-lang') ?? undefined,
  };
}

const noWidget = () => Promise.resolve();

window.Colloquy = {
  start,
  open: () => widget?.open(),
  close: () => widget?.close(),
  say: (text) => (widget ? widget.say(text) : noWidget()),
  reset: () => (widget ? widget.reset() : noWidget()),
};

const fromScript = script ? fromTag(script) : null;
if (fromScript) start(fromScript);

// GET /demo: a plain page that embeds the widget with the one line a site would add, for the demo
// bot (its web key is remembered when the demo is seeded) or any web key given as `?bot=`.

/** Meta key under which seeding the demo remembers the demo bot's web key. */
export const DEMO_WEB_KEY_META = 'demo.webKey';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The page's policy: scripts only from this server (so the buttons are wired by /demo.js, not by
 * inline handlers), styles inline too (the widget styles its shadow DOM), pictures of bot
 * messages from anywhere, framed by no one.
 */
export const DEMO_PAGE_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https: http:; media-src https: http:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The demo page's buttons, served as /demo.js. */
export const DEMO_SCRIPT = `document.addEventListener('click', (event) => {
  const button = event.target.closest && event.target.closest('[data-demo]');
  if (!button || !window.Colloquy) return;
  const action = button.getAttribute('data-demo');
  if (action === 'open') Colloquy.open();
  else if (action === 'human') Colloquy.say('human');
  else if (action === 'reset') Colloquy.reset();
});
`;

export function demoPage(webKey: string | null): string {
  const body = webKey
    ? `<p>The chat window in the corner is the Colloquy widget, added to this page with one line:</p>
    <pre><code>${escapeHtml(`<script src="/widget.js" data-bot="${webKey}"></script>`)}</code></pre>
    <p>Try the buttons, the product carousel, or track order <code>123456</code>.
    Reload the page: the conversation resumes where you left it.</p>
    <p>
      <button type="button" data-demo="open">Open the chat</button>
      <button type="button" data-demo="human">Ask for a person</button>
      <button type="button" data-demo="reset">Start a new conversation</button>
    </p>
    <script src="/widget.js" data-bot="${escapeHtml(webKey)}" data-open="true"></script>
    <script src="/demo.js"></script>`
    : `<p>No demo bot here. Start the server on an empty database (with <code>COLLOQUY_DEMO</code> not
    <code>0</code>) to create one, or open <code>/demo?bot=&lt;web key&gt;</code> for a bot whose web channel is on.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Colloquy web chat demo</title>
  <style>
    body { font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 3rem auto; padding: 0 1rem; color: #1f2933; }
    pre { background: #f3f4f6; padding: .75rem 1rem; border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
    button { font: inherit; margin: 0 .5rem .5rem 0; }
  </style>
</head>
<body>
  <main>
    <h1>Colloquy web chat demo</h1>
    ${body}
  </main>
</body>
</html>
`;
}

// GET /demo: a plain page that embeds the widget with the one line a site would add, for the demo
// bot (its web key is remembered when the demo is seeded) or any web key given as `?bot=`.

/** Meta key under which seeding the demo remembers the demo bot's web key. */
export const DEMO_WEB_KEY_META = 'demo.webKey';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function demoPage(webKey: string | null): string {
  const body = webKey
    ? `<p>The chat window in the corner is the Colloquy widget, added to this page with one line:</p>
    <pre><code>${escapeHtml(`<script src="/widget.js" data-bot="${webKey}"></script>`)}</code></pre>
    <p>Try the buttons, the product carousel, or track order <code>123456</code>.
    Reload the page: the conversation resumes where you left it.</p>
    <p>
      <button type="button" onclick="Colloquy.open()">Open the chat</button>
      <button type="button" onclick="Colloquy.say('human')">Ask for a person</button>
      <button type="button" onclick="Colloquy.reset()">Start a new conversation</button>
    </p>
    <script src="/widget.js" data-bot="${escapeHtml(webKey)}" data-open="true"></script>`
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
    pre { background: #f3f4f6; padding: .75rem 1rem; border-radius: 6px; overflow-x: auto; }
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

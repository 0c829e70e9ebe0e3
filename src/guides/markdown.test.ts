// The guides' markdown (markdown.ts): text is escaped before any markup, links keep only safe
// addresses, and a link to another guide points at its page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inline, markdownToHtml } from './markdown.js';

test('inline: code, bold, emphasis and links; HTML in the text is shown, never run', () => {
  assert.equal(inline('a `<b>` and **bold** and *em* <script>x</script>'), 'a <code>&lt;b&gt;</code> and <strong>bold</strong> and <em>em</em> &lt;script&gt;x&lt;/script&gt;');
  assert.equal(
    inline('[limits](limits.md) [top](docs/errors.md#codes) [site](https://example.org/a?b=1&c=2) [bad](javascript:alert(1))'),
    '<a href="/docs/guides/limits">limits</a> <a href="/docs/guides/errors#codes">top</a> <a href="https://example.org/a?b=1&amp;c=2">site</a> bad)',
  );
  assert.equal(inline('`**not bold**`'), '<code>**not bold**</code>');
});

test('blocks: headings with ids, lists with wrapped items, tables, fenced code and paragraphs', () => {
  const html = markdownToHtml(
    ['# Title', '', 'One', 'paragraph.', '', '- an item', '  that wraps', '- two', '', '| A | B |', '|---|---|', '| `x` | y \\| z |', '', '```sh', 'echo "<hi>"', '```'].join('\n'),
  );
  assert.equal(
    html,
    [
      '<h1 id="title">Title</h1>',
      '<p>One paragraph.</p>',
      '<ul><li>an item that wraps</li><li>two</li></ul>',
      '<div class="table"><table><thead><tr><th scope="col">A</th><th scope="col">B</th></tr></thead><tbody><tr><td><code>x</code></td><td>y | z</td></tr></tbody></table></div>',
      '<pre><code>echo &quot;&lt;hi&gt;&quot;</code></pre>',
    ].join('\n'),
  );
});

/** The one way the project writes HTML: the escaping template, and the one escaper under it. */
import { describe, expect, it } from 'vitest';
import { escapeHtml, html, Html } from '../../../src/format/index.js';

describe('the page template', () => {
  it('escapes every value, lists included, and keeps markup made by the template as it is', () => {
    const name = '<script>alert("x")</script>';
    const inner = html`<em>${name}</em>`;
    const page = html`<p title="${name}">${name} ${3} ${[name, inner]} ${null}${undefined}${false}</p>${inner}`;
    expect(page.markup).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; 3 ' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;<em>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</em> </p>' +
        '<em>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</em>',
    );
    expect(html`${"it's & that"}`.markup).toBe('it&#39;s &amp; that');
  });
});

describe('the escaper', () => {
  it('writes the five characters that can end text or an attribute as entities Telegram decodes too', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
    expect(escapeHtml('plain text, unchanged')).toBe('plain text, unchanged');
  });

  it('leaves markup vouched for as it is', () => {
    expect(html`<div>${new Html('<svg></svg>')}</div>`.markup).toBe('<div><svg></svg></div>');
  });
});

/**
 * Styled runs → Telegram HTML (Bot API "HTML style"): only the tags Telegram
 * accepts, properly nested, with only & < > escaped in text and " as well in
 * attributes. Every call produces a complete, balanced message.
 */
import { commonDepth, type Mark, type Run } from './styled.js';

export function escapeHtmlText(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

function escapeHtmlAttribute(text: string): string {
  return escapeHtmlText(text).replace(/"/g, '&quot;');
}

function openTag(mark: Mark): string {
  switch (mark.kind) {
    case 'bold': return '<b>';
    case 'italic': return '<i>';
    case 'strike': return '<s>';
    case 'code': return '<code>';
    case 'pre': return mark.lang ? `<pre><code class="language-${escapeHtmlAttribute(mark.lang)}">` : '<pre>';
    case 'link': return `<a href="${escapeHtmlAttribute(mark.href)}">`;
    case 'quote': return '<blockquote>';
  }
}

function closeTag(mark: Mark): string {
  switch (mark.kind) {
    case 'bold': return '</b>';
    case 'italic': return '</i>';
    case 'strike': return '</s>';
    case 'code': return '</code>';
    case 'pre': return mark.lang ? '</code></pre>' : '</pre>';
    case 'link': return '</a>';
    case 'quote': return '</blockquote>';
  }
}

export function runsToTelegramHtml(runs: readonly Run[]): string {
  let out = '';
  let open: readonly Mark[] = [];
  for (const run of runs) {
    if (!run.text) continue;
    const keep = commonDepth(open, run.marks);
    for (let i = open.length - 1; i >= keep; i--) out += closeTag(open[i] as Mark);
    for (let i = keep; i < run.marks.length; i++) out += openTag(run.marks[i] as Mark);
    out += escapeHtmlText(run.text);
    open = run.marks;
  }
  for (let i = open.length - 1; i >= 0; i--) out += closeTag(open[i] as Mark);
  return out;
}
